import type { Socket } from 'node:net';
import Flv from 'node-media-server/src/protocol/flv.js';
import { flvTagBytes } from '../../media/flv-tags.js';
import { GuardedRtmp, RtmpHalted, RtmpRefusal } from './guarded-rtmp.js';
import { logText } from './log-text.js';
import type { RtmpLimits } from './rtmp-limits.js';
import type {
  AskingPublishHandler,
  PlayHandler,
  PlaySession,
  PublishRequest,
  PublishSink,
  RtmpServerLog,
} from './rtmp-server.js';

/** A player this far behind is disconnected rather than buffered without bound. */
const MAX_PLAYER_BACKLOG_BYTES = 8 * 1024 * 1024;
/** Media a publisher sends while its authorization is being asked, held until the answer (then dropped). */
const MAX_PENDING_PUBLISH_MESSAGES = 4096;

// Only audio and video messages are passed on (GuardedRtmp.onMediaCallback). Script data
// (onMetaData) is left out: as RTMP delivers it (with the @setDataFrame prefix) ffmpeg takes it for
// an extra data stream, and the sequence headers in the audio and video tags already describe the codecs.

export interface RtmpConnectionDeps {
  onPublish: AskingPublishHandler;
  onPlay: PlayHandler | undefined;
  log: RtmpServerLog;
  limits: RtmpLimits;
}

/**
 * One RTMP peer on its socket: the protocol engine fed with its bytes, its publish or play handed
 * to the handlers. Whatever goes wrong with this peer (its bytes, a handler, the FLV it publishes)
 * ends this connection with one log line and nothing else; a peer that is slow to start or goes
 * silent while publishing is closed at its deadline.
 */
export class RtmpConnection {
  private readonly rtmp: GuardedRtmp;
  private readonly peer: string;
  private request: PublishRequest | undefined;
  private sink: PublishSink | undefined;
  private player: PlaySession | undefined;
  /** A publisher's media while play authorization (a backend) decides. */
  private pending: Buffer[] | undefined;
  private ended = false;
  private readonly startDeadline: NodeJS.Timeout;

  constructor(
    private readonly socket: Socket,
    private readonly deps: RtmpConnectionDeps,
  ) {
    const { limits } = deps;
    this.peer = logText(socket.remoteAddress ?? '');
    this.rtmp = new GuardedRtmp(limits, () => this.sink !== undefined || this.pending !== undefined);
    this.rtmp.onOutputCallback = (buffer) => {
      if (!socket.destroyed) socket.write(buffer);
    };
    this.rtmp.onConnectCallback = (req) => this.onConnect(req);
    this.rtmp.onPlayCallback = () => this.onPlay();
    this.rtmp.onPushCallback = () => this.onPush();
    this.rtmp.onMediaCallback = (type, timestampMs, body) => this.onMedia(type, timestampMs, body);

    this.startDeadline = setTimeout(
      () => this.end(`no publish or play accepted within ${limits.handshakeTimeoutMs} ms`),
      limits.handshakeTimeoutMs,
    );
    socket.setTimeout(limits.idleTimeoutMs, () => {
      if (!this.player) this.end(`nothing received for ${limits.idleTimeoutMs} ms`);
    });
    socket.on('data', (data: Buffer) =>
      this.guard(() => {
        const error = this.rtmp.parserData(data);
        if (error) this.end(logText(error));
      }),
    );
    socket.on('close', () => this.finish());
    socket.on('error', () => socket.destroy());
  }

  /** Ends the connection, logging why once (`reason` is already safe for the log). */
  private end(reason: string, level: 'notice' | 'error' = 'notice'): void {
    if (!this.ended) this.deps.log[level](`rtmp connection from ${this.peer} ended: ${reason}`);
    this.ended = true;
    this.rtmp.halt();
    this.socket.destroy();
  }

  /** Runs `work`; an error thrown by it, by the protocol engine or by a handler ends this connection. */
  private guard(work: () => void): void {
    try {
      work();
    } catch (error) {
      if (error instanceof RtmpHalted) return;
      if (error instanceof RtmpRefusal) return this.end(logText(error.message));
      const where = error instanceof Error ? error.stack?.split('\n')[1]?.trim() : undefined;
      const what = error instanceof Error ? error.message : String(error);
      this.end(`an error handling it: ${logText(what)}${where ? ` (${logText(where)})` : ''}`, 'error');
    }
  }

  /** Runs `then` with the answer, at once when it is not a promise; a rejection ends the connection. */
  private whenAnswered<T>(answer: T | Promise<T>, then: (answer: T) => void): void {
    if (!(answer instanceof Promise)) return then(answer);
    answer.then(
      (value) => this.guard(() => then(value)),
      (error: unknown) =>
        this.guard(() => {
          throw error;
        }),
    );
  }

  private finish(): void {
    clearTimeout(this.startDeadline);
    this.ended = true;
    this.rtmp.halt();
    this.sink?.end();
    this.sink = undefined;
    this.player?.stop();
    this.player = undefined;
  }

  /** The stream has been accepted: the start deadline no longer applies. */
  private started(): void {
    clearTimeout(this.startDeadline);
  }

  private describe(request: PublishRequest): string {
    return `${logText(request.app)}/${logText(request.name)} from ${this.peer}`;
  }

  private onConnect(req: { app: string; name: string; query: Record<string, unknown> }): void {
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.query ?? {})) if (typeof v === 'string') query[k] = v;
    this.request = { app: req.app, name: req.name, query, remoteAddress: this.socket.remoteAddress ?? '' };
  }

  private onPlay(): void {
    const { socket } = this;
    if (!this.request || !this.deps.onPlay) return this.end('play is not served here');
    const send = (message: Buffer) => {
      if (socket.destroyed) return false;
      if (socket.writableLength > MAX_PLAYER_BACKLOG_BYTES) {
        socket.destroy();
        return false;
      }
      socket.write(message);
      return true;
    };
    const asked = this.request;
    this.whenAnswered(
      this.deps.onPlay(asked, send, () => socket.destroy()),
      (answer) => {
        if ('refused' in answer) {
          this.deps.log.notice(`rtmp play ${this.describe(asked)} refused: ${logText(answer.refused)}`);
          this.ended = true;
          return void socket.destroy();
        }
        // The player left while its authorization was asked.
        if (socket.destroyed) return answer.stop();
        this.player = answer;
        this.started();
        // A player only reads: its silence is normal.
        socket.setTimeout(0);
      },
    );
  }

  private onPush(): void {
    if (!this.request) return this.end('publish without a connect');
    const asked = this.request;
    const answer = this.deps.onPublish(asked);
    if (answer instanceof Promise) this.pending = [];
    this.whenAnswered(answer, (decided) => {
      const held = this.pending ?? [];
      this.pending = undefined;
      if ('refused' in decided) {
        this.deps.log.notice(`rtmp publish ${this.describe(asked)} refused: ${logText(decided.refused)}`);
        this.ended = true;
        this.rtmp.halt();
        return void this.socket.destroy();
      }
      if (this.socket.destroyed) return decided.end();
      this.sink = decided;
      this.started();
      decided.attach?.(() => this.socket.destroy());
      decided.write(Flv.createHeader(true, true));
      for (const message of held) decided.write(message);
    });
  }

  /**
   * An audio or video message: to the sink as it is when it takes tags (no copy, no allocation),
   * else as an FLV tag (a copy: the engine reuses `body`).
   */
  private onMedia(type: number, timestampMs: number, body: Buffer): void {
    const sink = this.sink;
    if (sink?.writeTag) sink.writeTag(type, timestampMs, body);
    else if (sink) sink.write(flvTagBytes(type, timestampMs, body));
    else if (this.pending) {
      if (this.pending.length >= MAX_PENDING_PUBLISH_MESSAGES)
        return this.end(`over ${MAX_PENDING_PUBLISH_MESSAGES} media messages while its publish was decided`);
      this.pending.push(flvTagBytes(type, timestampMs, body));
    }
  }
}
