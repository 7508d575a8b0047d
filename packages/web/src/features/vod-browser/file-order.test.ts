import { describe, expect, it } from 'vitest';
import { isVideoName, orderEntries, type FileEntry } from './file-order.js';

const file = (name: string): FileEntry => ({ name, type: 'file' });
const dir = (name: string): FileEntry => ({ name, type: 'directory' });

describe('file list order (spec 002 §2)', () => {
  it('puts videos first, then directories made here, then directories, then other files', () => {
    const listing = [file('a.txt'), dir('archive'), file('b.mp4'), dir('new'), file('c.MKV'), file('z.flv')];
    const ordered = orderEntries(listing, new Set(['new']));
    expect(ordered.map((row) => [row.entry.name, row.kind])).toEqual([
      ['b.mp4', 'video'],
      ['c.MKV', 'video'],
      ['z.flv', 'video'],
      ['new', 'new-directory'],
      ['archive', 'directory'],
      ['a.txt', 'other'],
    ]);
  });

  it('knows the video types mp4, flv, m4v, mov, mkv by extension only (spec 002 §5)', () => {
    expect(['a.mp4', 'b.flv', 'c.m4v', 'd.mov', 'e.mkv'].every(isVideoName)).toBe(true);
    expect(['mp4', '.mp4', 'a.ts', 'a.mp4.txt', 'a.webm'].some(isVideoName)).toBe(false);
  });

  it('keeps a directory named like a video among directories', () => {
    expect(orderEntries([dir('clip.mp4')], new Set())[0]?.kind).toBe('directory');
  });
});
