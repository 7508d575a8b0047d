import { expect, it } from 'vitest';
import { downloadName } from './download-name.js';

it('names the download host-timestamp.json', () => {
  expect(downloadName('media1.example.com', new Date(2026, 0, 2, 3, 4, 5))).toBe(
    'media1.example.com-20260102-030405.json',
  );
  expect(downloadName('', new Date(2026, 10, 22, 13, 14, 15))).toBe('sluice-20261122-131415.json');
});
