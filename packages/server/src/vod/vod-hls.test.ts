import { describe, expect, it } from 'vitest';
import { hlsAnswer, vodMasterPlaylist, vodMediaPlaylist } from './vod-hls.js';
import type { VodSource, VodTrack } from './vod-source.js';

const video: VodTrack = {
  id: 1,
  content: 'video',
  codec: 'avc1.64001f',
  bitrate: 1_000_000,
  width: 1280,
  height: 720,
};
const eng: VodTrack = {
  id: 2,
  content: 'audio',
  codec: 'mp4a.40.2',
  bitrate: 128_000,
  lang: 'eng',
  channels: 2,
};
const fra: VodTrack = {
  id: 3,
  content: 'audio',
  codec: 'mp4a.40.2',
  bitrate: 96_000,
  lang: 'fra',
  channels: 2,
};

function source(tracks: VodTrack[], durations = [4, 4.2, 1.5]): VodSource {
  let start = 0;
  const segments = durations.map((durationS) => {
    const segment = { startS: start, durationS };
    start += durationS;
    return segment;
  });
  return {
    path: '/x.mp4',
    sizeBytes: 1,
    mtimeMs: 1,
    durationS: start,
    tracks,
    segments,
    tsSegment: () => Promise.resolve(Buffer.alloc(0)),
    close: () => undefined,
  };
}

describe('VOD HLS playlists', () => {
  it('one audio track: one variant carrying video and audio, with bandwidth, codecs and resolution', () => {
    const master = vodMasterPlaylist(source([video, eng]), '?token=t');
    expect(master).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-INDEPENDENT-SEGMENTS',
        '#EXT-X-STREAM-INF:BANDWIDTH=1240800,AVERAGE-BANDWIDTH=1128000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720',
        'video.m3u8?token=t',
        '',
      ].join('\n'),
    );
    expect(hlsAnswer(source([video, eng]), 'seg-2.ts', '')).toEqual({ segment: 2, tracks: [1, 2] });
  });

  it('two audio tracks: audio renditions, each with its own playlist; video segments carry the video alone', () => {
    const s = source([video, eng, fra]);
    const master = vodMasterPlaylist(s, '');
    expect(master).toContain(
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="eng",DEFAULT=YES,AUTOSELECT=YES,LANGUAGE="eng",CHANNELS="2",URI="audio-2.m3u8"',
    );
    expect(master).toContain('NAME="fra",DEFAULT=NO');
    expect(master).toContain('AUDIO="audio"');
    expect(hlsAnswer(s, 'seg-0.ts', '')).toEqual({ segment: 0, tracks: [1] });
    expect(hlsAnswer(s, 'a-3-1.ts', '')).toEqual({ segment: 1, tracks: [3] });
    expect(hlsAnswer(s, 'a-1-1.ts', '')).toEqual({ error: 'no audio rendition 1' });
    expect(hlsAnswer(s, 'seg-3.ts', '')).toEqual({ error: 'no segment 3' });
    const audio = hlsAnswer(s, 'audio-3.m3u8', '?token=t');
    expect('playlist' in audio && audio.playlist).toContain('a-3-0.ts?token=t');
  });

  it('a media playlist is a whole VOD playlist: type VOD, target duration the longest segment rounded up, ended', () => {
    const s = source([video, eng]);
    expect(vodMediaPlaylist(s.segments, (i) => `seg-${i}.ts`, '')).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-TARGETDURATION:5',
        '#EXT-X-MEDIA-SEQUENCE:0',
        '#EXT-X-PLAYLIST-TYPE:VOD',
        '#EXT-X-INDEPENDENT-SEGMENTS',
        '#EXTINF:4.000,',
        'seg-0.ts',
        '#EXTINF:4.200,',
        'seg-1.ts',
        '#EXTINF:1.500,',
        'seg-2.ts',
        '#EXT-X-ENDLIST',
        '',
      ].join('\n'),
    );
  });

  it('lists a long file whole (24 hours of 4 s segments)', () => {
    const s = source([video], new Array<number>(21_600).fill(4));
    const text = vodMediaPlaylist(s.segments, (i) => `seg-${i}.ts`, '');
    expect(text.split('\n').filter((l) => l.startsWith('seg-'))).toHaveLength(21_600);
  });
});
