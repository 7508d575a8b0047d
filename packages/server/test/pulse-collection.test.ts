import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PulseAnswer, PulseSeriesEvent, ServerStats } from '@sluice/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from './events-client.js';
import { basicAuth, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getBytes, getText, modifyConfig, segmentUris, streamStats } from './media-helpers.js';

/** Pulse (issue 21): collection each second into the store at pulsedb, queries over HTTP and the websocket. */
describe('Pulse collection and queries', () => {
  let server: RunningServer;
  const startedAt = Date.now();

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream demo {\n  url test://?size=320x180&bitrate=300;\n  static true;\n  thumbnails { enabled; }\n}\n`,
    });
    await waitFor(async () => (await streamStats(server, 'demo')).alive, 30_000);
  });
  afterAll(async () => {
    await server?.cleanup();
  });

  const pulse = async (query: string, from = startedAt) => {
    const res = await server.api(`/flussonic/api/pulse?query=${encodeURIComponent(query)}&from=${from}`);
    return { status: res.status, body: (await res.json()) as PulseAnswer & { error?: string } };
  };
  const measured = (answer: PulseAnswer) =>
    answer.series.flatMap((s) => s.points).filter(([, v]) => v !== null);

  it("records the stream's traffic and the server's clients each second, as the range call returns them", async () => {
    // A player takes a segment: output traffic and a client the server counts.
    const playlist = await waitFor(async () => {
      const { status, text } = await getText(`${server.url}/demo/index.m3u8`);
      return status === 200 && segmentUris(text).length > 0 ? text : undefined;
    });
    await getBytes(new URL(segmentUris(playlist)[0]!, `${server.url}/demo/index.m3u8`).href);
    const output = await waitFor(async () => {
      const { body } = await pulse('media_output{name=demo}');
      return body.series.length === 1 && measured(body).some(([, v]) => v! > 0) ? body : undefined;
    });
    expect(output).toMatchObject({ query: 'media_output{name=demo}', step_ms: 1000 });
    expect(output.series[0]!.tags).toEqual({ name: 'demo' });
    const input = (await pulse('media_input{name=demo}')).body;
    // test:// at 300 kbit/s: measured, not made up.
    expect(Math.max(...measured(input).map(([, v]) => v!))).toBeGreaterThan(100);
    const clients = await waitFor(async () => {
      const { body } = await pulse('total_clients');
      return measured(body).some(([, v]) => v! >= 1) ? body : undefined;
    });
    const times = clients.series[0]!.points.map(([ms]) => ms);
    // One point a second, on whole seconds.
    expect(times.every((ms, i) => ms % 1000 === 0 && (i === 0 || ms > times[i - 1]!))).toBe(true);
  });

  it("collects the thumbnailer's traffic and memory: what its decoders are fed and give back", async () => {
    // The stream's previews: one ffmpeg per segment fed the segment's start, a JPEG back.
    await waitFor(async () => (await fetch(`${server.url}/demo/preview.jpg`)).status === 200, 30_000);
    const peak = async (query: string) =>
      Math.max(0, ...measured((await pulse(query)).body).map(([, v]) => v!));
    // A 320x180 picture is a few KB and the segment start it is decoded from tens of KB: both above
    // nothing, input above output (kbit/s over the second each happened in).
    const [input, output] = await waitFor(async () => {
      const both = [await peak('thumbnailer_in'), await peak('thumbnailer_out')];
      return both[1]! > 0 ? both : undefined;
    });
    expect(input).toBeGreaterThan(output!);
    // At least the newest JPEG is held (bytes), more while a decoder runs at the sample.
    expect(await peak('thumbnailer_memusage')).toBeGreaterThan(1000);
    expect((await pulse('thumbnailer_memusage')).body.series).toHaveLength(1);
  });

  it('answers a query the grammar refuses with 400 "invalid format"', async () => {
    for (const bad of ['max:media_output{name', 'nosuch_metric', 'sum:1m-savg:media_output']) {
      const { status, body } = await pulse(bad);
      expect([bad, status, body.error]).toEqual([bad, 400, 'invalid format']);
    }
  });

  it('sends pulse_subscribe:<query> the last minute, then a point each second', async () => {
    const events = await EventsClient.open(`${server.url}/flussonic/api/events`, {
      authorization: basicAuth(),
    });
    try {
      const query = 'sum:total_input';
      const first = (await events.request(
        `pulse_subscribe:${query}`,
        'pulse.series',
      )) as unknown as PulseSeriesEvent;
      expect(first).toMatchObject({ query, step_ms: 1000 });
      // The last minute: every second measured since the server started (a few seconds ago here).
      const backlog = first.series[0]!.points.map(([ms]) => ms);
      expect(backlog.length).toBeGreaterThanOrEqual(
        Math.min(50, Math.floor((Date.now() - startedAt) / 1000) - 10),
      );
      expect(Math.min(...backlog)).toBeGreaterThanOrEqual(Date.now() - 62_000);
      const seen = () =>
        events.events.filter((e) => e.event === 'pulse.series') as unknown as PulseSeriesEvent[];
      await waitFor(() => seen().length >= 4);
      const later = seen().slice(1, 4);
      const times = later.flatMap((e) => e.series[0]!.points.map(([ms]) => ms));
      // Each event carries the seconds since the previous one: new times, one after another.
      expect(times.length).toBeGreaterThanOrEqual(3);
      expect(new Set(times).size).toBe(times.length);
      expect(Math.min(...times)).toBeGreaterThan(Math.max(...backlog));
      const bad = await events.request('pulse_subscribe:max:nope', 'error');
      expect(bad.message).toBe('invalid format');
    } finally {
      events.close();
    }
  });

  it('keeps what it measured across a restart', async () => {
    const before = measured((await pulse('total_clients')).body).map(([ms]) => ms);
    expect(before.length).toBeGreaterThan(0);
    const stoppedAt = Date.now();
    await server.restart();
    const after = await waitFor(async () => {
      const { body } = await pulse('total_clients');
      const times = measured(body).map(([ms]) => ms);
      return times.some((ms) => ms > stoppedAt) ? times : undefined;
    });
    // Every second measured before the restart is still answered.
    expect(before.filter((ms) => !after.includes(ms))).toEqual([]);
  });

  it('a pulsedb that cannot be written is a header notice, and collection goes on in memory', async () => {
    // Its parent is a file: no user (root included) can make the folder.
    const blocker = join(server.dir, 'not-a-folder');
    await writeFile(blocker, '');
    await modifyConfig(server, { pulsedb: join(blocker, 'pulse') });
    const status = await waitFor(async () => {
      const res = await server.api('/flussonic/api/read_config');
      const stats = ((await res.json()) as { stats: ServerStats }).stats;
      return stats.status?.error_pulsedb ? stats : undefined;
    });
    expect(status.status!.error_pulsedb).toContain(join(blocker, 'pulse'));
    const changedAt = Date.now();
    await waitFor(async () => measured((await pulse('total_input', changedAt)).body).length >= 2);
    expect(server.output()).toContain("can't be written");
  });
});
