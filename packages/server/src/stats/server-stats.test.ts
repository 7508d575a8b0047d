import { describe, expect, it } from 'vitest';
import { type ServerFigures, serverStats } from './server-stats.js';

const figures = (pulse?: ServerFigures['pulse']): ServerFigures => ({
  version: '1',
  build: 0,
  hostname: 'h',
  startedAt: Date.now(),
  errors: () => ({}),
  traffic: () => ({ inputKbit: 0, outputKbit: 0, clients: 0, openedFiles: 0 }),
  pulse,
});

describe('server stats: statistics collection (spec 000 §2 header)', () => {
  const stats = (pulse?: ServerFigures['pulse']) => serverStats({}, {}, figures(pulse));

  it('"Collecting statistics" while Pulse collects; no warning while it keeps its file', () => {
    expect(stats(() => ({ collecting: true, persisted: true }))).toMatchObject({
      retroview_enabled: true,
      retroview_configured: true,
    });
  });

  it('warns "Enable statistics collection" when the store went to memory, and when there is no Pulse', () => {
    expect(stats(() => ({ collecting: true, persisted: false }))).toMatchObject({
      retroview_enabled: true,
      retroview_configured: false,
    });
    // A pulsedb key set in the config is not collection.
    expect(serverStats({ pulsedb: '/var/lib/pulse' }, {}, figures())).toMatchObject({
      retroview_enabled: false,
      retroview_configured: false,
    });
  });
});
