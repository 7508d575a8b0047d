import { describe, expect, it } from 'vitest';
import { cutsOf, parseVideoPackets, segmentsOf } from './ffprobe-keyframes.js';
import { hexDump } from './ffprobe-tracks.js';

const starts = (keyframes: number[], fileStart: number, duration: number) =>
  segmentsOf(cutsOf(keyframes, fileStart, duration, 4), fileStart, duration).map((s) => [
    s.startS,
    s.durationS,
  ]);

describe('segments cut at keyframes', () => {
  it('joins 2 s GOPs into 4 s segments; the first from the file start, the last to its end', () => {
    const keyframes = [1.48, 3.48, 5.48, 7.48, 9.48, 11.48];
    expect(starts(keyframes, 1.46, 11.5)).toEqual([
      [0, 4.02],
      [4.02, 4],
      [8.02, 3.48],
    ]);
  });

  it('keeps a GOP longer than the target whole, and segments never longer than needed', () => {
    expect(starts([0, 5, 10, 11, 12, 13], 0, 14)).toEqual([
      [0, 5],
      [5, 5],
      [10, 4],
    ]);
  });

  it('cuts a file without video every 4 s', () => {
    expect(starts([], 0, 9)).toEqual([
      [0, 4],
      [4, 4],
      [8, 1],
    ]);
  });

  it('reads keyframes from ffprobe packet lines: blank lines, N/A pts, repeats', () => {
    const csv = '1.480000,1.400000,4794,K_,\n\n1.640000,1.440000,2199,__,\n\nN/A,3.4,100,K_,\n3.4,3.4,1,K_\n';
    expect(parseVideoPackets(csv)).toEqual({ keyframesS: [1.48, 3.4], bytes: 7094 });
  });

  it('reads an ffprobe hex dump, the ascii column left out', () => {
    const dump =
      '\n00000000: 0000 0167 6400 0dac d941 41fb 0110 0000  ...gd....AA.....\n00000020: 68ef 8fcb                                h...\n';
    expect(hexDump(dump).toString('hex')).toBe('000001676400' + '0dacd94141fb01100000' + '68ef8fcb');
  });
});
