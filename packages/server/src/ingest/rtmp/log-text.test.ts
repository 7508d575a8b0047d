import { describe, expect, it } from 'vitest';
import { logText } from './log-text.js';

describe('logText', () => {
  it('escapes line breaks and other control characters, so a name cannot start a log line', () => {
    expect(logText('cam\r\n2030-01-01T00:00:00Z error forged')).toBe(
      'cam\\r\\n2030-01-01T00:00:00Z error forged',
    );
    expect(logText('a\u0000b\u001bc\u007fd\u0085e\u2028f\tg')).toBe(
      'a\\u0000b\\u001bc\\u007fd\\u0085e\\u2028f\\tg',
    );
  });

  it('cuts long text, saying how long it was', () => {
    expect(logText('x'.repeat(5000))).toBe(`${'x'.repeat(200)}…(5000 chars)`);
    expect(logText('live/cam-1')).toBe('live/cam-1');
  });
});
