import { describe, expect, it } from 'vitest';
import { moveItem, sourcePanel, sourceStatus } from './source-entries.js';

describe('source entries', () => {
  it('moves an item', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
  });

  it('tells unsaved, online, offline and switch apart', () => {
    expect(sourceStatus('a', 'b', { url: 'a', alive: true })).toBe('unsaved');
    expect(sourceStatus('a', 'a', { url: 'a', alive: true })).toBe('online');
    expect(sourceStatus('a', 'a', { alive: false })).toBe('offline');
    expect(sourceStatus('a', 'a', { url: 'b', alive: true })).toBe('switch');
  });

  it('picks the option panel by scheme', () => {
    expect(sourcePanel('hlss://x/a.m3u8')).toBe('hls');
    expect(sourcePanel('rtsp://cam/1')).toBe('rtsp');
    expect(sourcePanel('udp://239.0.0.1:1234')).toBe('ts');
    expect(sourcePanel('test://')).toBeUndefined();
  });
});
