import fc from 'fast-check';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RtmpConnection } from '../src/ingest/rtmp/rtmp-connection.js';
import { RTMP_LIMITS } from '../src/ingest/rtmp/rtmp-limits.js';
import { type PlayHandler, type PublishHandler, RtmpServer } from '../src/ingest/rtmp/rtmp-server.js';
import { type FlvTag, publishSession } from '../src/ingest/rtmp/rtmp-wire.js';
import { FlvToTs } from '../src/media/flv-to-ts.js';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { rtmpPublisher, streamStats } from './media-helpers.js';
import { sendSessions, sessionArbitrary } from './security-rtmp-fuzz-cases.js';
import { answersApi, closedWithin, rawRtmp, recordedTags } from './security-rtmp-helpers.js';

const IN_PROCESS_CASES = 10_000;
const TCP_CASES = 1_000;
const REAL_SERVER_CASES = 1_000;

/**
 * The transport of the in-process fuzz: bytes are handed to the connection as a socket's reads,
 * and what it writes back is dropped. The listener's TCP path is fuzzed below, over real sockets.
 */
class FedSocket extends EventEmitter {
  readonly remoteAddress = '127.0.0.1';
  readonly writableLength = 0;
  destroyed = false;
  write(): boolean {
    return !this.destroyed;
  }
  setTimeout(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  destroy(): this {
    if (!this.destroyed) {
      this.destroyed = true;
      this.emit('close');
    }
    return this;
  }
}

/**
 * The RTMP fuzz (issue 13, Critical): random and mutated-valid chunk streams. 10^4 sessions are
 * fed straight to the listener's connection class in this process (fast; an error escaping it is
 * thrown into fast-check, which shrinks the session), with publishes remuxed by the real FLV to
 * MPEG-TS path; 10^3 go over TCP to an in-process RtmpServer, and 10^3 to the real server process,
 * which must still answer its API and take a real encoder's publish afterwards.
 * bench/rtmp-fuzz.mjs sends 10^6 to the real server.
 */
describe('RTMP fuzz', () => {
  let tags: FlvTag[];
  beforeAll(() => {
    // A second of media (its keyframe first): enough to reach the MPEG-TS muxer, small enough to be fast.
    tags = recordedTags(1).slice(0, 30);
  });

  it(`${IN_PROCESS_CASES} sessions end or keep only their own connection (in process)`, async () => {
    const logged: string[] = [];
    let tsBytes = 0;
    const publish: PublishHandler = () => {
      const remux = new FlvToTs((packets) => (tsBytes += packets.length));
      return { write: (flv) => void remux.push(flv), end: () => undefined };
    };
    // Plays are answered later (as an auth backend would), so the asynchronous path is fuzzed too.
    const play: PlayHandler = () => Promise.resolve({ stop: () => undefined });
    const deps = {
      onPublish: publish,
      onPlay: play,
      log: { notice: () => undefined, error: (m: string) => void logged.push(m) },
      limits: RTMP_LIMITS,
    };
    await fc.assert(
      fc.asyncProperty(
        sessionArbitrary(tags),
        fc.array(fc.nat(), { maxLength: 4 }),
        async (session, cuts) => {
          const socket = new FedSocket();
          new RtmpConnection(socket as unknown as Socket, deps);
          // Fed as TCP may deliver it: in reads split anywhere. An error escaping the listener
          // is thrown here, and fast-check shrinks the session that caused it.
          let from = 0;
          for (const cut of [
            ...cuts.map((c) => c % (session.length + 1)).sort((x, y) => x - y),
            session.length,
          ]) {
            if (socket.destroyed) break;
            socket.emit('data', session.subarray(from, Math.max(from, cut)));
            from = Math.max(from, cut);
          }
          socket.destroy();
          // Answers given later (plays) land before the next case.
          await new Promise((resolve) => setImmediate(resolve));
          expect(logged).toEqual([]);
        },
      ),
      { numRuns: IN_PROCESS_CASES },
    );
    // The fuzz reached the MPEG-TS muxer, not only the parser's refusals.
    expect(tsBytes).toBeGreaterThan(0);
  });

  it(`${TCP_CASES} sessions over TCP to an RtmpServer in process, then a valid publish`, async () => {
    let tsBytes = 0;
    const logged: string[] = [];
    const publish: PublishHandler = () => {
      const remux = new FlvToTs((packets) => (tsBytes += packets.length));
      return { write: (flv) => void remux.push(flv), end: () => undefined };
    };
    const log = { notice: () => undefined, error: (m: string) => void logged.push(m) };
    const server = new RtmpServer(publish, log, undefined, { ...RTMP_LIMITS, maxConnectionsPerIp: 1000 });
    const port = await server.listen(0, '127.0.0.1');
    try {
      const sessions = fc.sample(sessionArbitrary(tags), { numRuns: TCP_CASES, seed: 7 });
      expect((await sendSessions(port, sessions, 32)).stuck).toBe(0);
      expect(logged).toEqual([]);
      const before = tsBytes;
      const valid = rawRtmp(port, publishSession('live', 'after', tags));
      await waitFor(() => tsBytes > before);
      valid.socket.destroy();
    } finally {
      await server.close();
    }
  });

  describe('against the real server process', () => {
    let server: RunningServer;
    let port: number;

    beforeAll(async () => {
      port = await freePort();
      server = await startServer({
        config: `${minimalConfig}rtmp ${port};\nlive live {\n  source_timeout 2;\n}\n`,
      });
    });
    afterAll(() => server?.cleanup());

    it(`still answers and takes a real publish after ${REAL_SERVER_CASES} fuzz sessions`, async () => {
      const sessions = fc.sample(sessionArbitrary(tags), { numRuns: REAL_SERVER_CASES, seed: 13 });
      // Under the per-address cap (64): the rest wait their turn.
      const { stuck } = await sendSessions(port, sessions, 16);
      expect(stuck).toBe(0);
      expect(await answersApi(server)).toBe(true);
      expect(server.output()).not.toMatch(/uncaught exception|unhandled promise rejection/);
      // node-media-server's own console lines (one per unreadable AMF message) are silenced.
      expect(server.output()).not.toMatch(/\[ERROR\] (Unknown|Failed)/);

      const publisher = rtmpPublisher(`rtmp://127.0.0.1:${port}/live/after-fuzz`);
      try {
        await waitFor(async () => (await streamStats(server, 'live/after-fuzz', 'live')).alive, 20_000);
      } finally {
        await publisher.stop();
      }
      // A fuzz session left open would still hold its slot: a fresh connection is answered.
      const probe = rawRtmp(port, publishSession('live', 'probe').slice(0, 1));
      await waitFor(() => probe.received() >= 3073);
      probe.socket.destroy();
      await closedWithin(probe, 5000);
    }, 120_000);
  });
});
