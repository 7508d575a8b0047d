import { describe, expect, it } from 'vitest';
import { formatBytes } from './session-format.js';

describe('session figures', () => {
  it('shows bytes in binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});
