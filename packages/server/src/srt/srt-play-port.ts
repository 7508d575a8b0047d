import { authorizedSession } from '../auth/play-gate.js';
import type { PlayAuth } from '../auth/play-auth.js';
import type { ClientSessions } from '../delivery/client-sessions.js';
import type { Engine } from '../engine/engine.js';
import { head } from '../engine/ffmpeg/common-args.js';
import { Supervisor } from '../engine/ffmpeg/supervisor.js';
import { logText } from '../ingest/rtmp/log-text.js';
import type { SrtPortDeps } from './srt-publish-port.js';
import { type RelayPeer, SrtRelay } from './srt-relay.js';
import {
  freeUdpPort,
  passphraseRefusal,
  srtListenerUrl,
  type SrtPortSpec,
  srtRefusal,
} from './srt-settings.js';

/** A player this far behind is cut off rather than buffered without bound. */
const MAX_BACKLOG_BYTES = 8 * 1024 * 1024;

export interface SrtPlayDeps extends SrtPortDeps {
  engine: Engine;
  sessions: ClientSessions;
  auth: PlayAuth;
}

/**
 * Receiver latency asked of players (libsrt takes the larger of both sides'): a player starts with a
 * burst (the open segment from its keyframe), and a packet lost in it must have time to come again.
 */
const PLAY_LATENCY_MS = 400;

/**
 * The listener ffmpeg: the bus on stdin, probed briefly (a live pipe gives media in real time, and
 * the caller's connect timeout, 3 s by default, runs meanwhile), copied to SRT as MPEG-TS.
 */
function playArgs(url: string): string[] {
  return [
    ...head(),
    ...['-probesize', '65536', '-analyzeduration', '200000', '-f', 'mpegts', '-i', 'pipe:0'],
    ...['-map', '0:v?', '-map', '0:a?', '-c', 'copy', '-f', 'mpegts', url],
  ];
}

interface Player {
  inner: number | undefined;
  stop: () => void;
}

/**
 * A stream's `srt_play { port N; passphrase P; }`: players call `srt://HOST:N?passphrase=P` and get
 * the stream as MPEG-TS from its current keyframe. Each caller is a play request like an HLS one
 * (play authorization, a client session, max_sessions) and gets an ffmpeg libsrt listener of its
 * own on loopback, fed from the stream's packet bus; the relay passes its datagrams there.
 */
export class SrtPlayPort {
  private readonly relay: SrtRelay;
  private readonly players = new Map<string, Player>();
  private readonly label: string;

  constructor(
    private readonly spec: SrtPortSpec,
    private readonly deps: SrtPlayDeps,
  ) {
    this.label = `srt play ${logText(spec.stream)} on port ${spec.port}`;
    this.relay = new SrtRelay({
      host: deps.host,
      port: spec.port,
      innerPort: (peer) => this.innerPort(peer),
      onGone: (peer) => this.players.get(peer.key)?.stop(),
    });
  }

  async start(): Promise<void> {
    const refused = passphraseRefusal(this.spec.passphrase);
    if (refused) return this.deps.log.notice(`${this.label} not opened: ${refused}`);
    await this.relay.start();
    this.deps.log.notice(`${this.label}: listening`);
  }

  async stop(): Promise<void> {
    this.relay.close();
    for (const player of [...this.players.values()]) player.stop();
  }

  /** The caller's listener port once it runs; the first datagrams start it (the caller repeats them). */
  private innerPort(peer: RelayPeer): number | undefined {
    const known = this.players.get(peer.key);
    if (known) return known.inner;
    const player: Player = { inner: undefined, stop: () => this.players.delete(peer.key) };
    this.players.set(peer.key, player);
    const { engine, sessions, auth } = this.deps;
    const who = {
      stream: this.spec.stream,
      type: 'srt' as const,
      ip: peer.address,
      userAgent: 'srt',
      token: undefined,
    };
    const runtime = engine.get(this.spec.stream);
    const allowed = authorizedSession(
      auth,
      sessions,
      { ...who, referer: undefined },
      runtime?.spec.maxSessions,
    );
    void Promise.resolve(allowed)
      .then(async (session) => {
        if ('refused' in session) {
          this.deps.log.notice(
            `${this.label}: player ${logText(peer.address)} refused: ${logText(session.refused)}`,
          );
          // Forgotten after a while, so its handshakes are not asked about again and again meanwhile.
          return setTimeout(() => this.players.delete(peer.key), 5000).unref();
        }
        const bus = engine.touch(this.spec.stream)?.bus;
        if (!bus) {
          this.deps.log.notice(
            `${this.label}: player ${logText(peer.address)} refused: the stream is not running`,
          );
          return setTimeout(() => this.players.delete(peer.key), 2000).unref();
        }
        const inner = await freeUdpPort();
        session.openResponses++;
        let unsubscribe = () => undefined as void;
        const listener = new Supervisor({
          binary: this.deps.ffmpegPath,
          args: playArgs(srtListenerUrl(inner, this.spec.passphrase, PLAY_LATENCY_MS)),
          env: this.deps.env,
          withStdin: true,
          restart: false,
          logLines: 10,
          onStdout: () => undefined,
          onLine: (line) => {
            const refusal = srtRefusal(line);
            if (refusal)
              this.deps.log.notice(
                `${this.label}: player ${logText(peer.address)} refused: ${logText(refusal)}`,
              );
          },
          onStateChange: (to) => {
            if (to !== 'running' && to !== 'starting') end();
          },
        });
        const write = (chunk: Buffer) => {
          const stdin = listener.stdin as (NodeJS.WritableStream & { writableLength: number }) | undefined;
          if (listener.state !== 'running' || !stdin) return;
          if (stdin.writableLength > MAX_BACKLOG_BYTES) return listener.kill('the player is too far behind');
          stdin.write(chunk);
          sessions.sent(session, chunk.length, Date.now());
        };
        let ended = false;
        const end = () => {
          if (ended) return;
          ended = true;
          unsubscribe();
          session.openResponses--;
          this.players.delete(peer.key);
          this.relay.forget(peer.key);
          void listener.stop();
        };
        player.stop = end;
        listener.start();
        for (const part of bus.segmenter.liveStart()) write(part);
        unsubscribe = bus.subscribe(write);
        player.inner = inner;
        this.deps.log.notice(`${this.label}: player ${logText(peer.address)} started`);
      })
      .catch((error: unknown) => {
        this.players.delete(peer.key);
        this.deps.log.notice(
          `${this.label}: player ${logText(peer.address)} failed: ${logText(String(error))}`,
        );
      });
    return undefined;
  }
}
