import { describe, expect, it } from 'vitest';
import { streamRowView } from './stream-row-view.js';

describe('streamRowView', () => {
  it('shows a running stream: status, clients, bitrate, runtime as days hh:mm:ss, active source', () => {
    const view = streamRowView(
      'cam',
      {
        static: true,
        urls: [{ url: 'udp://239.0.0.1:1234' }, { url: 'test://' }],
        stats: {
          alive: true,
          client_count: 4,
          bitrate: 2500,
          lifetime: (86400 + 3 * 3600 + 25 * 60 + 9) * 1000 + 700,
          url: 'test://',
          ts_delay: 20,
        },
      },
      true,
    );
    expect(view).toEqual({
      status: { kind: 'online', label: 'online', detail: '', short: 'on' },
      clients: '4',
      bitrate: '2.4 Mbit/s',
      runtime: '1d 03:25:09',
      source: 'test://',
      error: '',
    });
  });

  it('shows a broken source with its error text and retries, and no bitrate while nothing flows', () => {
    const view = streamRowView(
      'broken',
      {
        static: true,
        urls: [{ url: 'tshttp://127.0.0.1:9/none.ts' }],
        stats: {
          alive: false,
          retry_count: 3,
          source_error: 'connection refused',
          bitrate: 0,
          lifetime: 4000,
        },
      },
      true,
    );
    expect(view).toMatchObject({
      status: { kind: 'error', label: 'error', detail: 'retries: 3' },
      error: 'connection refused',
      bitrate: '',
      runtime: '00:00:04',
      source: 'tshttp://127.0.0.1:9/none.ts',
    });
  });

  it('leaves the figures empty for a stream that has no stats yet', () => {
    expect(streamRowView('new', { urls: [{ url: 'udp://239.0.0.1:1' }] }, true)).toMatchObject({
      status: { label: 'waiting for clients' },
      clients: '',
      bitrate: '',
      runtime: '',
      source: 'udp://239.0.0.1:1',
    });
  });
});
