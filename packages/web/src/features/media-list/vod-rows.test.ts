import { describe, expect, it } from 'vitest';
import { fileRowView, openedFilesOf, vodFigures, vodRowView } from './vod-rows.js';

const files = {
  'vod/b.mp4': { name: 'vod/b.mp4', prefix: 'vod', stats: { client_count: 2, out_bandwidth: 800 } },
  'vod/a.mp4': { name: 'vod/a.mp4', prefix: 'vod', stats: { client_count: 1, out_bandwidth: 400 } },
  'ads/x.mp4': { name: 'ads/x.mp4', prefix: 'ads', stats: { client_count: 5 } },
};

describe('VOD rows of the media list', () => {
  it("lists a VOD's opened files by name, not another VOD's", () => {
    expect(openedFilesOf(files, 'vod')).toEqual(['vod/a.mp4', 'vod/b.mp4']);
    expect(openedFilesOf(undefined, 'vod')).toEqual([]);
  });

  it('a VOD row sums the clients and bitrate of its opened files and lists its paths', () => {
    const view = vodRowView({ urls: [{ url: '/a' }, { url: '/b' }] }, vodFigures(files, 'vod'));
    expect(view).toEqual({ clients: '3', bitrate: '1.2 Mbit/s', runtime: '', source: '/a, /b' });
    expect(vodRowView({}, vodFigures(files, 'none'))).toMatchObject({ clients: '0', bitrate: '' });
  });

  it('a file row shows its clients, bitrate sent and time since it was opened', () => {
    const view = fileRowView({ client_count: 1, out_bandwidth: 300, opened_at: 1_000 }, 66_000);
    expect(view).toEqual({ clients: '1', bitrate: '300 kbit/s', runtime: '00:01:05', source: '' });
  });
});
