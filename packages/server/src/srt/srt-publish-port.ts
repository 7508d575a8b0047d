import { head, mpegtsToStdout } from '../engine/ffmpeg/common-args.js';
import { Supervisor } from '../engine/ffmpeg/supervisor.js';
import { logText } from '../ingest/rtmp/log-text.js';
import type { AskingPublishHandler, PublishSink } from '../ingest/rtmp/rtmp-server.js';
import { publishRequestFor } from '../ingest/webrtc/webrtc-socket.js';
import {
  freeUdpPort,
  passphraseRefusal,
  srtListenerUrl,
  type SrtPortSpec,
  srtRefusal,
} from './srt-settings.js';
import { SrtRelay } from './srt-relay.js';

/** What a publisher may send while its publish is being decided; more ends the connection. */
const MAX_PENDING_BYTES = 4 * 1024 * 1024;

export interface SrtPortDeps {
  host: string;
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
  log: { notice(message: string): void };
}

/**
 * A stream's `srt_publish { port N; passphrase P; }`: encoders push MPEG-TS over SRT (caller mode,
 * `srt://HOST:N?passphrase=P`) and the media goes into the stream's publish slot by the RTMP
 * listener's rules (the stream's auth, on_publish, max_bitrate), with published_via `srt` and the
 * caller's address as published_from. The passphrase is the publisher's credential (libsrt refuses
 * a wrong one in the handshake; the refusal is logged). ffmpeg's libsrt listener on loopback behind
 * the relay receives; a new listener is started when a publisher goes.
 */
export class SrtPublishPort {
  private readonly relay: SrtRelay;
  private listener: Supervisor | undefined;
  private sink: PublishSink | undefined;
  private pending: Buffer[] | undefined;
  private pendingBytes = 0;
  private inner = 0;
  private readonly label: string;

  constructor(
    private readonly spec: SrtPortSpec,
    private readonly publish: AskingPublishHandler,
    private readonly deps: SrtPortDeps,
  ) {
    this.label = `srt publish ${logText(spec.stream)} on port ${spec.port}`;
    this.relay = new SrtRelay({ host: deps.host, port: spec.port, innerPort: () => this.inner });
  }

  async start(): Promise<void> {
    const refused = passphraseRefusal(this.spec.passphrase);
    if (refused) return this.deps.log.notice(`${this.label} not opened: ${refused}`);
    this.inner = await freeUdpPort();
    await this.relay.start();
    this.listener = new Supervisor({
      binary: this.deps.ffmpegPath,
      args: [
        ...head(),
        ...['-f', 'mpegts', '-i', srtListenerUrl(this.inner, this.spec.passphrase)],
        ...['-map', '0:v?', '-map', '0:a?', '-c', 'copy'],
        ...mpegtsToStdout(),
      ],
      env: this.deps.env,
      restartDelayMs: 200,
      maxRestartDelayMs: 2000,
      logLines: 20,
      onStdout: (chunk) => this.media(chunk),
      onLine: (line) => this.line(line),
      onStateChange: (to) => {
        if (to !== 'running' && to !== 'starting') this.publisherGone();
      },
    });
    this.listener.start();
    this.deps.log.notice(`${this.label}: listening`);
  }

  async stop(): Promise<void> {
    this.relay.close();
    this.publisherGone();
    await this.listener?.stop();
  }

  /** libsrt's own log lines name a refused handshake (a wrong passphrase). */
  private line(line: string): void {
    const refusal = srtRefusal(line);
    if (refusal) this.deps.log.notice(`${this.label}: caller ${this.who()} refused: ${logText(refusal)}`);
  }

  private who(): string {
    return logText(this.relay.lastPeer?.address ?? 'unknown');
  }

  private media(chunk: Buffer): void {
    if (this.sink) return this.sink.write(chunk);
    if (this.pending) {
      this.pendingBytes += chunk.length;
      if (this.pendingBytes > MAX_PENDING_BYTES) return this.listener?.kill('publish not decided in time');
      this.pending.push(chunk);
      return;
    }
    this.pending = [chunk];
    this.pendingBytes = chunk.length;
    const address = this.relay.lastPeer?.address ?? '';
    const request = {
      ...publishRequestFor(this.spec.stream, { password: this.spec.streamPassword ?? '' }, address),
      via: 'srt',
      format: 'mpegts' as const,
    };
    const decide = (answer: PublishSink | { refused: string }) => {
      const held = this.pending ?? [];
      this.pending = undefined;
      if ('refused' in answer) {
        this.deps.log.notice(
          `${this.label}: publisher ${logText(address)} refused: ${logText(answer.refused)}`,
        );
        return this.listener?.kill('publish refused');
      }
      this.sink = answer;
      answer.attach?.(() => this.listener?.kill('disconnected by the server'));
      this.deps.log.notice(`${this.label}: publisher ${logText(address)} started`);
      for (const piece of held) answer.write(piece);
    };
    const answer = this.publish(request);
    if (answer instanceof Promise)
      answer.then(decide, () => this.listener?.kill('publish authorization failed'));
    else decide(answer);
  }

  private publisherGone(): void {
    this.pending = undefined;
    if (!this.sink) return;
    this.deps.log.notice(`${this.label}: publisher ended`);
    this.sink.end();
    this.sink = undefined;
  }
}
