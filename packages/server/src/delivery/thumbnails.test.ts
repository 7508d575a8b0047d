import { describe, expect, it } from 'vitest';
import { JpegSplitter } from './thumbnails.js';

const jpeg = (fill: number) => Buffer.from([0xff, 0xd8, 0xff, 0xe0, fill, fill, 0xff, 0x00, 0xff, 0xd9]);

describe('JpegSplitter', () => {
  it('cuts concatenated JPEGs at their end markers, across chunk borders', () => {
    const out: Buffer[] = [];
    const splitter = new JpegSplitter((j) => out.push(j));
    const data = Buffer.concat([jpeg(1), jpeg(2), jpeg(3)]);
    splitter.push(data.subarray(0, 13));
    splitter.push(data.subarray(13, 21));
    splitter.push(data.subarray(21));
    expect(out).toEqual([jpeg(1), jpeg(2), jpeg(3)]);
  });
});
