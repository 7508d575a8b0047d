import { createServer, type Server, type Socket } from 'node:net';
import { PeerSockets } from '../peer-sockets.js';
import type { TlsWrap } from '../tls-accept.js';
import { RtmpConnection } from './rtmp-connection.js';
import { RTMP_LIMITS, type RtmpLimits } from './rtmp-limits.js';

/** What a publisher asked for: rtmp://host:port/APP/NAME?query. */
export interface PublishRequest {
  app: string;
  name: string;
  query: Record<string, string>;
  remoteAddress: string;
  /** How the publisher came (stats published_via): rtmp when not said. */
  via?: string;
  /** What the sink is written: FLV (RTMP, WebRTC's ffmpeg) unless `mpegts` (HTTP or SRT publish). */
  format?: 'flv' | 'mpegts';
}

/**
 * Where a publisher's media goes, as an FLV byte stream (header first, then one tag per packet), or
 * MPEG-TS in any alignment when the request's format says so.
 */
export interface PublishSink {
  write(flv: Buffer): void;
  /**
   * One FLV audio or video tag given as its parts, after the header `write` gave: what an RTMP
   * publisher's messages are handed as when the sink takes them, without building the tag. `body`
   * is valid during the call only (the protocol engine reuses it): the sink copies what it keeps.
   */
  writeTag?(type: number, timestampMs: number, body: Buffer): void;
  /**
   * MPEG-TS from a publisher that is not FLV (RTSP's depacketized RTP, muxed in process): goes to
   * the stream as it is. Either this or `write` is used for one publish, never both.
   */
  writeTs?(ts: Buffer): void;
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

export interface RtmpServerLog {
  notice(message: string): void;
  error(message: string): void;
}

/**
 * The RTMP listener for publishers and players: node-media-server's protocol engine (handshake, chunking, AMF
 * commands) on sockets of our own, so who may publish where is decided by the config, not by NMS.
 * Players are handed to the play handler, which feeds them ready RTMP messages. Each peer is an
 * RtmpConnection; one address may hold at most `limits.maxConnectionsPerIp` of them. With `tls`
 * (RTMPS) each socket is counted as it is accepted, then speaks RTMP only once its TLS handshake
 * is done within the handshake timeout.
 */
export class RtmpServer {
  private server: Server | undefined;
  private readonly peers: PeerSockets;

  constructor(
    private readonly onPublish: AskingPublishHandler,
    private readonly log: RtmpServerLog,
    private readonly onPlay?: PlayHandler,
    private readonly limits: RtmpLimits = RTMP_LIMITS,
    tls?: TlsWrap,
  ) {
    this.peers = new PeerSockets(tls?.name ?? 'rtmp', limits, log, tls);
  }

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
    this.peers.destroyAll();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }

  private accept(socket: Socket): void {
    this.peers.accept(socket, (peer) => this.connect(peer));
  }

  private connect(socket: Socket): void {
    new RtmpConnection(socket, {
      onPublish: this.onPublish,
      onPlay: this.onPlay,
      log: this.log,
      limits: this.limits,
    });
  }
}
