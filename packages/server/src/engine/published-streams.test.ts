import type { Config } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { LiveView } from '../live/live-view.js';
import { Engine } from './engine.js';
import { PublishedStreams } from './published-streams.js';
import { PublishSlots } from './publish-slots.js';

const silent = { notice: () => undefined, error: () => undefined, warn: () => undefined } as never;
const context = { ffmpegPath: 'ffmpeg', childEnv: process.env, slots: new PublishSlots() };
const noClients = {
  figures: () => ({ count: 0, bytesOut: 0, lastAccessAt: undefined, outBytesPerSecond: 0, openResponses: 0 }),
  totalClients: () => 0,
  outBytesPerSecond: () => 0,
};

describe('streams that go tell the engine owner, which drops what it keeps per stream', () => {
  it('names a published stream once its publisher stayed away for source_timeout', async () => {
    const removed: string[] = [];
    const published = new PublishedStreams(new LiveView(), context, silent, (name) => removed.push(name));
    const config = { lives: { live: { source_timeout: 2 } } } as Config;
    // Each publish under a fresh name (the soak's 283 publishers) was kept in client totals and traffic.
    for (const name of ['live/a', 'live/b']) published.open('live', config.lives!.live!, name);
    published.sweep(config, 0);
    expect(removed).toEqual([]);
    published.sweep(config, 2500);
    expect(removed).toEqual(['live/a', 'live/b']);
    await published.close();
  });

  it('names a stream removed from the config', async () => {
    const removed: string[] = [];
    const engine = new Engine({
      view: new LiveView(),
      log: silent,
      sources: context,
      clients: noClients,
      onRemoved: (name) => removed.push(name),
    });
    const stream = { urls: [{ url: 'udp://239.9.9.9:5000' }] };
    engine.apply({ streams: { edit1: stream, kept: stream } } as unknown as Config);
    engine.apply({ streams: { kept: stream } } as unknown as Config);
    expect(removed).toEqual(['edit1']);
    await engine.close();
  });
});
