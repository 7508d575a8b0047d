import { describe, expect, it } from 'vitest';
import { publishingEnabled, streamStatus, type StreamWithStats } from './status.js';

const live: StreamWithStats = {
  static: true,
  urls: [{ url: 'udp://239.0.0.1:1234' }],
  stats: { alive: true, ts_delay: 100 },
};
const status = (s: StreamWithStats, urlPublish = true) => streamStatus(s, urlPublish);

describe('stream display status, rules in order (spec 000 §4)', () => {
  it('1. disabled wins over everything', () => {
    expect(
      status({ ...live, disabled: true, stats: { source_error: 'boom', retry_count: 3 } }),
    ).toMatchObject({ kind: 'disabled', short: 'dis' });
  });

  it('2. error on source_error, except thumbnails_are_not_fetched', () => {
    expect(status({ ...live, stats: { ...live.stats, source_error: 'connection refused' } })).toMatchObject({
      kind: 'error',
      label: 'error',
      detail: '',
      short: 'err',
      error: 'connection refused',
    });
    expect(
      status({ ...live, stats: { alive: false, source_error: 'refused', retry_count: 2, ts_delay: 9000 } }),
    ).toMatchObject({ kind: 'error', detail: 'delay 9s, retries: 2', error: 'refused' });
    expect(status({ ...live, stats: { ...live.stats, source_error: 'thumbnails_are_not_fetched' } })).toEqual(
      { kind: 'online', label: 'online', detail: '', short: 'on' },
    );
  });

  it('2. error when unavailable: ts_delay over 60 s or retries, with detail', () => {
    expect(status({ ...live, stats: { alive: true, ts_delay: 60_001 } })).toMatchObject({
      kind: 'error',
      detail: 'delay 60s',
    });
    expect(status({ ...live, stats: { alive: true, ts_delay: 60_000 } }).kind).toBe('delay');
    expect(status({ ...live, stats: { alive: false, retry_count: 4 } })).toMatchObject({
      kind: 'error',
      detail: 'retries: 4',
    });
  });

  it('3. expecting publication when only publishing is configured and nothing is published', () => {
    expect(status({ static: true, urls: [{ url: 'publish://' }], stats: {} })).toMatchObject({
      kind: 'expecting',
      label: 'expecting publication',
    });
    expect(status({ static: true, publish_enabled: true, stats: {} }).kind).toBe('expecting');
    // publish:// counts only with the url_publish capability.
    expect(status({ static: true, urls: [{ url: 'publish://' }], stats: {} }, false).kind).toBe('no_sources');
  });

  it('4. waiting for clients when not static and not alive', () => {
    expect(status({ urls: [{ url: 'udp://239.0.0.1:1' }], stats: {} })).toMatchObject({
      kind: 'waiting',
      label: 'waiting for clients',
      short: 'off',
    });
  });

  it('5. no sources defined', () => {
    expect(status({ static: true, stats: {} })).toMatchObject({
      kind: 'no_sources',
      label: 'no sources defined',
    });
  });

  it('6. delay over 5 s, or over 10 s for HLS and m4f sources, with detail over 8 s', () => {
    expect(status({ ...live, stats: { alive: true, ts_delay: 5001 } })).toMatchObject({
      kind: 'delay',
      label: 'delay 5s',
      detail: '',
    });
    expect(status({ ...live, stats: { alive: true, ts_delay: 9000 } })).toMatchObject({
      kind: 'delay',
      detail: 'delay 9s',
    });
    const hls = { ...live, urls: [{ url: 'hls://origin/x/index.m3u8' }] };
    expect(status({ ...hls, stats: { alive: true, ts_delay: 9000 } }).kind).toBe('online');
    expect(status({ ...hls, stats: { alive: true, ts_delay: 10_001 } }).kind).toBe('delay');
    // The active source decides: an m4f source now playing gets the longer bound too.
    const m4f = { ...live, stats: { alive: true, ts_delay: 9000, url: 'm4f://origin/x' } };
    expect(status(m4f).kind).toBe('online');
  });

  it('7. drops per second when input_error_rate is set', () => {
    expect(status({ ...live, stats: { alive: true, input_error_rate: 3 } })).toMatchObject({
      kind: 'drops',
      label: '3 drops/s',
      short: 'on',
    });
    expect(status({ ...live, stats: { alive: true, input_error_rate: 0.25 } }).label).toBe('0.3 drops/s');
    expect(status({ ...live, stats: { alive: true, input_error_rate: 0 } }).kind).toBe('online');
  });

  it('8. online otherwise', () => {
    expect(status(live)).toEqual({ kind: 'online', label: 'online', detail: '', short: 'on' });
  });
});

describe('publishingEnabled', () => {
  it('follows publish_enabled, or a publish:// source with the capability', () => {
    expect(publishingEnabled({ publish_enabled: true }, false)).toBe(true);
    expect(publishingEnabled({ urls: [{ url: 'publish://' }] }, true)).toBe(true);
    expect(publishingEnabled({ urls: [{ url: 'publish://' }] }, false)).toBe(false);
    expect(publishingEnabled({ urls: [{ url: 'udp://x' }] }, true)).toBe(false);
  });
});
