import { describe, expect, it } from 'vitest';
import { streamInfoJson } from './stream-info-json.js';

const mediaInfo = {
  width: 320,
  height: 180,
  tracks: [{ track_id: 'v1', content: 'video' as const, codec: 'h264' }],
};

describe('info.json (what Flussonic players ask about a stream)', () => {
  it('a live stream without DVR: running, alive, its tracks, no archive, no MSE-LD', () => {
    expect(streamInfoJson('cam', { running: true, mediaInfo }, { enabled: false })).toEqual({
      name: 'cam',
      stats: { status: 'running', alive: true, dvr_enabled: false, media_info: mediaInfo },
      protocols: { hls: true, dash: true, mpegts: true, mseld: false },
    });
  });

  it('a stream with DVR that is not running: stopped (the player shows the archive), its dvr_info', () => {
    const info = { from: 1_795_510_800, depth: 3600, duration: 20, disk_size: 1000, ranges: [] };
    const answer = streamInfoJson('cam', undefined, { enabled: true, info });
    expect(answer.stats).toEqual({ status: 'stopped', alive: false, dvr_enabled: true, dvr_info: info });
  });

  it('a running stream whose source has not delivered yet is starting; switched-off protocols say so', () => {
    const answer = streamInfoJson('cam', { running: true, protocols: { hls: false } }, { enabled: false });
    expect(answer.stats).toMatchObject({ status: 'starting', alive: false });
    expect(answer.protocols).toMatchObject({ hls: false, mseld: false });
  });
});
