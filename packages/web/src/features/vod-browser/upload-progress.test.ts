import { describe, expect, it } from 'vitest';
import { perFilePercent } from './upload-progress.js';
import { uploadHeaders } from './upload-request.js';

describe('per-file upload progress', () => {
  // Two files of 1000 and 3000 bytes in a body of 4100 bytes (100 bytes of part headers).
  const sizes = [1000, 3000];
  it('fills the files in the order they are sent', () => {
    expect(perFilePercent(sizes, 0, 4100)).toEqual([0, 0]);
    expect(perFilePercent(sizes, 410, 4100)).toEqual([40, 0]);
    expect(perFilePercent(sizes, 2050, 4100)).toEqual([100, 33]);
    expect(perFilePercent(sizes, 4100, 4100)).toEqual([100, 100]);
  });

  it('shows nothing sent while the total is unknown, and an empty file full at the end', () => {
    expect(perFilePercent(sizes, 500, 0)).toEqual([0, 0]);
    expect(perFilePercent([0], 10, 10)).toEqual([100]);
  });
});

describe('upload headers (spec 002 §7)', () => {
  it('names the VOD, source path, directory and every file with its size', () => {
    const headers = uploadHeaders({ prefix: 'vod', path: '1', subpath: 'shows/2024' }, [
      { name: 'a.mp4', size: 10 },
      { name: 'b.txt', size: 2048 },
    ]);
    expect(headers).toEqual({
      'X-Prefix': 'vod',
      'X-Path': '1',
      'X-Subpath': 'shows/2024',
      'X-File-Sizes': 'a.mp4:10|b.txt:2048',
      'X-Requested-With': 'sluice',
      'Cache-Control': 'no-cache',
    });
  });

  it('percent-encodes names, so any name fits a header and its ":" or "|" does not split the list', () => {
    const headers = uploadHeaders({ prefix: 'vod', path: '0', subpath: 'émissions/a|b' }, [
      { name: 'été: 1|2.mp4', size: 5 },
    ]);
    expect(headers['X-Subpath']).toBe('%C3%A9missions/a%7Cb');
    expect(headers['X-File-Sizes']).toBe('%C3%A9t%C3%A9%3A%201%7C2.mp4:5');
  });
});
