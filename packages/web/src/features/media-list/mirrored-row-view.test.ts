import { describe, expect, it } from 'vitest';
import { mirroredRowView } from './mirrored-row-view.js';

const ORIGIN = ['http://origin:8080'];

describe('mirrored stream rows', () => {
  it('shows a running static stream online with its figures', () => {
    const view = mirroredRowView(
      {
        name: 'cam',
        static: true,
        stats: {
          alive: true,
          bitrate: 700,
          client_count: 2,
          lifetime: 65_000,
          url: 'http://origin:8080/cam/mpegts',
        },
      },
      ORIGIN,
    );
    expect(view).toMatchObject({ clients: '2', bitrate: '700 kbit/s', runtime: '00:01:05', error: '' });
    expect(view.status.label).toBe('online');
  });

  it('shows an idle on-demand stream waiting for clients, with no figures', () => {
    const view = mirroredRowView({ name: 'idle', static: false, stats: {} }, ORIGIN);
    expect(view.status.label).toBe('waiting for clients');
    expect(view).toMatchObject({ clients: '', bitrate: '', runtime: '' });
  });

  it('shows the source error in the row', () => {
    const view = mirroredRowView(
      { name: 'cam', static: true, stats: { alive: false, source_error: 'connection refused' } },
      ORIGIN,
    );
    expect(view.status.label).toBe('error');
    expect(view.error).toBe('connection refused');
  });
});
