import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKET_SIZE, pidOf } from '../src/media/ts-packet.js';
import { sectionPackets } from '../src/media/ts-tables.js';
import {
  SCTE_PID,
  scte35Section,
  spliceInsert,
  tablesWithScte35,
} from '../src/ads/testing/scte35-sections.js';
import { adCounts, dateRanges, localTimeOfDay, makeAdFile, saveAdSchedules } from './ad-helpers.js';
import { EventsClient } from './events-client.js';
import { basicAuth, freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, modifyConfig } from './media-helpers.js';

const run = promisify(execFile);

/**
 * SCTE-35 cues in a UDP MPEG-TS source of a stream with an ad_schedule reach the server's cue
 * watch (ads/scte35-streams.ts) and the stream's log; the parsing and placing rules themselves are
 * unit-tested (src/ads/scte35*.test.ts).
 */
describe('SCTE-35 cues in a live UDP source', () => {
  let server: RunningServer;
  let events: EventsClient;
  let sending: NodeJS.Timeout | undefined;
  const socket = createSocket('udp4');

  beforeAll(async () => {
    const port = await freePort();
    server = await startServer({
      config: `${minimalConfig}stream cue {\n  url udp://127.0.0.1:${port};\n  static true;\n}\n`,
    });
    const vodDir = join(server.dir, 'vod');
    await makeAdFile(join(vodDir, 'spots'), 'cola.mp4', 1);
    await modifyConfig(server, { vods: { ads: { prefix: 'ads', urls: [{ url: vodDir }] } } });
    const far = localTimeOfDay(Date.now() + 3 * 3600_000);
    await saveAdSchedules(server, [
      {
        name: 'brk',
        slots: [{ from: far, duration: 5 }],
        files: [{ name: 'ads/spots/cola.mp4', weight: 1 }],
      },
    ]);
    await modifyConfig(server, { streams: { cue: { ad_schedule: 'brk' } } });

    // 2 s of H.264 in MPEG-TS, its tables replaced by ones listing an SCTE-35 PID, a cue-out after
    // every 50 packets (encoders repeat a cue; the watch reports it once), sent in real time, looped.
    const file = join(server.dir, 'live.ts');
    await run('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=25:duration=2'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-f', 'mpegts', file],
    ]);
    const bytes = await readFile(file);
    const cue = scte35Section(
      0x05,
      spliceInsert({ eventId: 77, outOfNetwork: true, immediate: true, durationTicks: 20 * 90_000 }),
    );
    const parts: Buffer[] = [];
    let cc = 0;
    for (let o = 0, n = 0; o + PACKET_SIZE <= bytes.length; o += PACKET_SIZE) {
      const pid = pidOf(bytes, o);
      if (pid === 0 || pid === 0x1000) continue;
      if (n++ % 50 === 0) {
        parts.push(tablesWithScte35(cc), sectionPackets(SCTE_PID, cue, cc));
        cc = (cc + 1) & 0x0f;
      }
      parts.push(bytes.subarray(o, o + PACKET_SIZE));
    }
    const stream = Buffer.concat(parts);
    const datagram = 7 * PACKET_SIZE;
    const perTick = Math.max(1, Math.ceil(stream.length / datagram / 100)); // 2 s in 100 ticks of 20 ms
    let at = 0;
    sending = setInterval(() => {
      for (let i = 0; i < perTick; i++) {
        socket.send(stream.subarray(at, at + datagram), port, '127.0.0.1');
        at = at + datagram >= stream.length ? 0 : at + datagram;
      }
    }, 20);
    events = await EventsClient.open(`${server.url}/flussonic/api/events`, { authorization: basicAuth() });
  });
  afterAll(async () => {
    clearInterval(sending);
    socket.close();
    events?.close();
    await server?.cleanup();
  });

  it("writes the source's cue-out to the stream's log, once", async () => {
    const seen = events.events.length;
    events.send('log_media_start:cue');
    const lines = () =>
      events.events
        .slice(seen)
        .filter((e) => e.event === 'log.entry' && e.name === 'cue')
        .map((e) => String(e.text))
        .filter((l) => l.includes('SCTE-35'));
    const found = await waitFor(() => (lines().length > 0 ? lines() : undefined), 30_000);
    expect(found[0]).toMatch(/SCTE-35 cue-out \(event 77\): an ad break of 20 s in 0 ms/);
    // The same cue again and again (each 50 packets, the file looped) is not a new break.
    expect(lines()).toHaveLength(1);
  });

  it("starts the break the cue asked for: the playlist marks it and the ad's show is counted", async () => {
    // The schedule's only slot is hours away: the cue alone starts this break.
    const cueOut = await waitFor(async () => {
      const text = (await getText(`${server.url}/cue/video.m3u8`)).text;
      return dateRanges(text).find((d) => d['X-CUE-OUT'] === 'YES');
    }, 40_000);
    expect(cueOut['PLANNED-DURATION']).toBe('20');
    const shown = await waitFor(async () => (await adCounts(server)).cue?.find((f) => f.show_count > 0));
    expect(shown).toMatchObject({ name: 'ads/spots/cola.mp4', show_count: 1 });
  });
});
