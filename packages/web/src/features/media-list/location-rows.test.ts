import { describe, expect, it } from 'vitest';
import { deleteConfirmation, locationRowView, publishedRowView } from './location-rows.js';

describe('publishing location rows', () => {
  it('sums the clients and bitrate of the streams published into a location', () => {
    expect(
      locationRowView({
        prefix: 'live',
        urls: [{ url: 'publish://' }],
        streams: {
          'live/a': { stats: { alive: true, client_count: 2, bitrate: 800 } },
          'live/b': { stats: { alive: true, client_count: 1, bitrate: 400 } },
          'live/c': { stats: { alive: false, bitrate: 0 } },
        },
      }),
    ).toEqual({ clients: '3', bitrate: '1.2 Mbit/s', runtime: '', source: 'publish://' });
    expect(locationRowView({ prefix: 'empty' })).toEqual({
      clients: '0',
      bitrate: '',
      runtime: '',
      source: '',
    });
  });

  it('shows a published stream with who publishes it', () => {
    expect(
      publishedRowView({
        alive: true,
        client_count: 0,
        bitrate: 700,
        lifetime: 65_000,
        published_from: '10.0.0.7',
        published_via: 'rtmp',
      }),
    ).toEqual({ clients: '0', bitrate: '700 kbit/s', runtime: '00:01:05', source: '10.0.0.7 (rtmp)' });
  });

  it('asks before deleting, and says the DVR archive stays when there is one', () => {
    expect(deleteConfirmation('live', false)).toEqual(['Really delete live from config?']);
    expect(deleteConfirmation('live', true)).toEqual([
      'Really delete live from config?',
      'DVR archive would remain.',
    ]);
  });
});
