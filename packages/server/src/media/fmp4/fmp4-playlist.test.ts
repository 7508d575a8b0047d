import { describe, expect, it } from 'vitest';
import { mediaPlaylist } from '../hls-playlist.js';
import { fmp4MediaPlaylist } from './fmp4-playlist.js';

const ts = (query = '') =>
  mediaPlaylist({
    segments: [
      { sequence: 41, durationMs: 2000, discontinuity: false },
      { sequence: 42, durationMs: 1960, discontinuity: false },
      { sequence: 43, durationMs: 2040, discontinuity: true },
      { sequence: 44, durationMs: 2000, discontinuity: true },
    ],
    targetDurationS: 2,
    discontinuitySequence: 5,
    query,
  });

describe('live fMP4 media playlist', () => {
  it('lists the TS playlist’s segments as fragments, with the init before the first', () => {
    const inits: Record<number, string> = { 41: 'aaaa0001', 42: 'aaaa0001', 43: 'aaaa0001', 44: 'bbbb0002' };
    expect(fmp4MediaPlaylist(ts(), (s) => inits[s], '')).toBe(
      [
        '#EXTM3U',
        // EXT-X-MAP in a media playlist without I-frames only: version 6 (RFC 8216 §7).
        '#EXT-X-VERSION:7',
        '#EXT-X-TARGETDURATION:2',
        '#EXT-X-MEDIA-SEQUENCE:41',
        '#EXT-X-DISCONTINUITY-SEQUENCE:5',
        '#EXT-X-MAP:URI="fmp4-init-aaaa0001.mp4"',
        '#EXTINF:2.000,',
        'fmp4-41.m4s',
        '#EXTINF:1.960,',
        'fmp4-42.m4s',
        // The same codec parameters after a discontinuity: the same init goes on.
        '#EXT-X-DISCONTINUITY',
        '#EXTINF:2.040,',
        'fmp4-43.m4s',
        // New parameters: a new init, after the discontinuity that announces them.
        '#EXT-X-DISCONTINUITY',
        '#EXT-X-MAP:URI="fmp4-init-bbbb0002.mp4"',
        '#EXTINF:2.000,',
        'fmp4-44.m4s',
        '',
      ].join('\n'),
    );
  });

  it('carries the query (a token) on the init and every fragment', () => {
    const text = fmp4MediaPlaylist(ts('?token=a%20b'), () => 'cccc0003', '?token=a%20b')!;
    expect(text).toContain('#EXT-X-MAP:URI="fmp4-init-cccc0003.mp4?token=a%20b"');
    expect(text).toContain('\nfmp4-44.m4s?token=a%20b\n');
    expect(text).not.toContain('.ts');
  });

  it('lists an outage’s EXT-X-GAP entries as they are, without an init, under version 8', () => {
    const withGap = mediaPlaylist({
      segments: [
        { sequence: 41, durationMs: 2000, discontinuity: false },
        { sequence: 44, durationMs: 2000, discontinuity: true, gapsBeforeMs: [1500, 700] },
      ],
      targetDurationS: 2,
      discontinuitySequence: 0,
      query: '',
    });
    // Gap segments have no media: an init looked up for them would fail the whole playlist.
    const text = fmp4MediaPlaylist(withGap, (s) => (s === 41 || s === 44 ? 'aaaa0001' : undefined), '');
    expect(text).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:8',
        '#EXT-X-TARGETDURATION:2',
        '#EXT-X-MEDIA-SEQUENCE:41',
        '#EXT-X-MAP:URI="fmp4-init-aaaa0001.mp4"',
        '#EXTINF:2.000,',
        'fmp4-41.m4s',
        '#EXTINF:1.500,',
        '#EXT-X-GAP',
        'fmp4-42.m4s',
        '#EXTINF:0.700,',
        '#EXT-X-GAP',
        'fmp4-43.m4s',
        '#EXT-X-DISCONTINUITY',
        '#EXTINF:2.000,',
        'fmp4-44.m4s',
        '',
      ].join('\n'),
    );
  });

  it('gives no playlist when a segment cannot be packaged', () => {
    expect(fmp4MediaPlaylist(ts(), (s) => (s === 43 ? undefined : 'aaaa0001'), '')).toBeUndefined();
  });
});
