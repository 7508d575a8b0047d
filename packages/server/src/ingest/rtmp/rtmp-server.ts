import { createServer, type Server, type Socket } from 'node:net';
import type { AVPacket } from 'node-media-server/src/core/avpacket.js';
import Flv from 'node-media-server/src/protocol/flv.js';
import Rtmp from 'node-media-server/src/protocol/rtmp.js';

/** What a publisher asked for: rtmp://host:port/APP/NAME?query. */
export interface PublishRequest {
  app: string;
  name: string;
  query: Record<string, string>;
  remoteAddress: string;
  /** How the publisher came (stats published_via): rtmp when not said. */
  via?: string;
}

/** Where a publisher's media goes, as an FLV byte stream (header first, then one tag per packet). */
export interface PublishSink {
  write(flv: Buffer): void;
  /** The publisher went away (or was refused later); the sink releases what it holds. */
  end(): void;
  /** Given, once accepted, the way to disconnect the publisher (a limit exceeded, the stream removed). */
  attach?(disconnect: () => void): void;
}

/** Accepts a publish by returning a sink, or refuses it with the reason (logged; the socket closes). */
export type PublishHandler = (request: PublishRequest) => PublishSink | { refused: string };
/** A publish handler that may first ask (play authorization of the publisher): the listener's own. */
export type AskingPublishHandler = (
  request: PublishRequest,
) => PublishSink | { refused: string } | Promise<PublishSink | { refused: string }>;

/** A player being fed: stop() is called when it goes. */
export interface PlaySession {
  stop(): void;
}

/**
 * Accepts a player by returning its session, or refuses it. `send` writes ready RTMP messages to
 * the player and returns false once the socket is gone or too far behind (then it is closed).
 */
export type PlayHandler = (
  request: PublishRequest,
  send: (message: Buffer) => boolean,
  disconnect: () => void,
) => PlaySession | { refused: string } | Promise<PlaySession | { refused: string }>;

/** A player this far behind is disconnected rather than buffered without bound. */
const MAX_PLAYER_BACKLOG_BYTES = 8 * 1024 * 1024;
/** Media a publisher sends while its authorization is being asked, held until the answer (then dropped). */
const MAX_PENDING_PUBLISH_MESSAGES = 4096;

export interface RtmpServerLog {
  notice(message: string): void;
  error(message: string): void;
}

// FLV tag types passed on. Script data (onMetaData) is left out: as RTMP delivers it (with the
// @setDataFrame prefix) ffmpeg takes it for an extra data stream, and the sequence headers in the
// audio and video tags already describe the codecs.
const FLV_AUDIO = 8;
const FLV_VIDEO = 9;

/**
 * The RTMP listener for publishers and players: node-media-server's protocol engine (handshake, chunking, AMF
 * commands) on sockets of our own, so who may publish where is decided by the config, not by NMS.
 * Players are handed to the play handler, which feeds them ready RTMP messages.
 */
export class RtmpServer {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly onPublish: AskingPublishHandler,
    private readonly log: RtmpServerLog,
    private readonly onPlay?: PlayHandler,
  ) {}

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const server = createServer((socket) => this.accept(socket));
      server.once('error', reject);
      server.listen({ port, host }, () => {
        this.server = server;
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.setNoDelay(true);
    const rtmp = new Rtmp();
    let sink: PublishSink | undefined;
    let player: PlaySession | undefined;
    let request: PublishRequest | undefined;
    /** A publisher's media while play authorization (a backend) decides. */
    let pending: Buffer[] | undefined;
    const finish = () => {
      sink?.end();
      sink = undefined;
      player?.stop();
      player = undefined;
      this.sockets.delete(socket);
    };
    rtmp.onOutputCallback = (buffer) => {
      if (!socket.destroyed) socket.write(buffer);
    };
    rtmp.onConnectCallback = (req) => {
      const query: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.query ?? {})) if (typeof v === 'string') query[k] = v;
      request = { app: req.app, name: req.name, query, remoteAddress: socket.remoteAddress ?? '' };
    };
    rtmp.onPlayCallback = () => {
      if (!request || !this.onPlay) return socket.destroy();
      const send = (message: Buffer) => {
        if (socket.destroyed) return false;
        if (socket.writableLength > MAX_PLAYER_BACKLOG_BYTES) {
          socket.destroy();
          return false;
        }
        socket.write(message);
        return true;
      };
      const asked = request;
      const answered = (answer: PlaySession | { refused: string }) => {
        if ('refused' in answer) {
          this.log.notice(
            `rtmp play ${asked.app}/${asked.name} from ${asked.remoteAddress} refused: ${answer.refused}`,
          );
          return socket.destroy();
        }
        // The player left while its authorization was asked.
        if (socket.destroyed) return answer.stop();
        player = answer;
      };
      const answer = this.onPlay(request, send, () => socket.destroy());
      if (answer instanceof Promise) void answer.then(answered);
      else answered(answer);
    };
    rtmp.onPushCallback = () => {
      if (!request) return socket.destroy();
      const asked = request;
      const answered = (answer: PublishSink | { refused: string }) => {
        const held = pending ?? [];
        pending = undefined;
        if ('refused' in answer) {
          this.log.notice(
            `rtmp publish ${asked.app}/${asked.name} from ${asked.remoteAddress} refused: ${answer.refused}`,
          );
          return socket.destroy();
        }
        if (socket.destroyed) return answer.end();
        sink = answer;
        sink.attach?.(() => socket.destroy());
        sink.write(Flv.createHeader(true, true));
        for (const message of held) sink.write(message);
      };
      const answer = this.onPublish(request);
      if (answer instanceof Promise) {
        pending = [];
        void answer.then(answered);
      } else answered(answer);
    };
    rtmp.onPacketCallback = (packet: AVPacket) => {
      if (packet.codec_type !== FLV_AUDIO && packet.codec_type !== FLV_VIDEO) return;
      if (sink) sink.write(Flv.createMessage(packet));
      else if (pending) {
        if (pending.length >= MAX_PENDING_PUBLISH_MESSAGES) return socket.destroy();
        // The parser reuses its buffer: the message is copied now.
        pending.push(Buffer.from(Flv.createMessage(packet)));
      }
    };
    socket.on('data', (data: Buffer) => {
      const error = rtmp.parserData(data);
      if (error) {
        this.log.notice(`rtmp session from ${socket.remoteAddress}: ${error}`);
        socket.destroy();
      }
    });
    socket.on('close', finish);
    socket.on('error', () => socket.destroy());
  }
}
