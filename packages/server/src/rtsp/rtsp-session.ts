import { randomBytes } from 'node:crypto';
import type { MaybePromise } from '../auth/play-gate.js';
import type { RtspLimits } from './rtsp-limits.js';
import type { RtspPlayers } from './rtsp-play.js';
import { RtspPlaySession } from './rtsp-play-session.js';
import { type RtspPublishGate, RtspPublishSession } from './rtsp-publish-session.js';
import type { RtspRequest } from './rtsp-request.js';
import { PUBLIC_METHODS, refuse, type RtspReply } from './rtsp-response.js';
import { chooseTransport, parseRtspUrl, type RtspTransport } from './rtsp-url.js';

/** What a session needs of its connection. */
export interface RtspLink {
  /** The peer's IPv4 address (as UDP is sent to). */
  readonly address: string;
  readonly limits: RtspLimits;
  readonly closed: boolean;
  /** RTP over UDP is served on this connection (not over RTSPS: TCP interleaved only). */
  readonly udpServed: boolean;
  /** A PLAY or RECORD was accepted: the start deadline no longer applies. */
  started(): void;
  /** Ends the connection, logging why once. */
  close(reason: string): void;
  /** Writes an interleaved frame; false once the connection is gone or too far behind. */
  interleave(channel: number, data: Buffer): boolean;
  sendUdp(packet: Buffer, port: number, rtcp: boolean): boolean;
  /** RTP from the peer's UDP port `port`; returns how to stop receiving. */
  receiveUdp(port: number, receive: (payload: Buffer) => void): () => void;
  /** The Transport header answering a SETUP (server_port for UDP). */
  transportHeader(transport: RtspTransport): string;
  /** Whether interleaved channels are already given to another track of this connection. */
  channelTaken(channels: [number, number], except: Map<number, RtspTransport>): boolean;
}

export interface RtspSessionDeps {
  players: RtspPlayers;
  publish: RtspPublishGate;
}

/** How long a session is kept without a request or RTCP (RFC 2326 §12.37): clients keep alive before. */
export const SESSION_TIMEOUT_S = 60;

/**
 * The methods of one RTSP connection (RFC 2326 §10), one session per connection: a player
 * (DESCRIBE, SETUP, PLAY) or a publisher (ANNOUNCE, SETUP, RECORD). Answers each request with a
 * reply; refusals carry their reason for the log.
 */
export class RtspSession {
  readonly id = randomBytes(8).toString('hex');
  readonly play: RtspPlaySession;
  readonly publish: RtspPublishSession;

  constructor(
    deps: RtspSessionDeps,
    private readonly link: RtspLink,
  ) {
    this.play = new RtspPlaySession(deps.players, link);
    this.publish = new RtspPublishSession(deps.publish, link);
  }

  /** A player playing or a publisher recording: the peer got past authorization. */
  get active(): boolean {
    return this.play.playing || this.publish.recording;
  }

  handle(request: RtspRequest): MaybePromise<RtspReply> {
    const reply = this.dispatch(request);
    const withSession = (r: RtspReply): RtspReply =>
      r.status === 200 && ['SETUP', 'PLAY', 'RECORD'].includes(request.method)
        ? { ...r, headers: { ...r.headers, Session: `${this.id};timeout=${SESSION_TIMEOUT_S}` } }
        : r;
    return reply instanceof Promise ? reply.then(withSession) : withSession(reply);
  }

  end(): void {
    this.play.end();
    this.publish.end();
  }

  private dispatch(request: RtspRequest): MaybePromise<RtspReply> {
    const { method } = request;
    if (method === 'OPTIONS') return { status: 200, headers: { Public: PUBLIC_METHODS } };
    if (method === 'GET_PARAMETER' || method === 'SET_PARAMETER') return this.keepalive(request);
    if (method === 'TEARDOWN') return { status: 200, close: true };
    if (!['DESCRIBE', 'ANNOUNCE', 'SETUP', 'PLAY', 'RECORD'].includes(method))
      return refuse(501, `method ${method.slice(0, 32)} is not served`);
    const target = parseRtspUrl(request.uri);
    if (!target) return refuse(404, `no stream at ${request.uri.slice(0, 200)}`);
    const session = request.headers.get('session')?.split(';')[0]?.trim();
    if (method !== 'DESCRIBE' && method !== 'ANNOUNCE' && session !== undefined && session !== this.id)
      return refuse(454, `an unknown session ${session.slice(0, 40)}`);
    switch (method) {
      case 'DESCRIBE':
        if (this.publish.announced) return refuse(455, 'DESCRIBE on a publishing connection');
        return this.play.describe(request, target);
      case 'ANNOUNCE':
        if (this.play.trackCount > 0) return refuse(455, 'ANNOUNCE on a playing connection');
        return this.publish.announce(request, target);
      case 'SETUP': {
        const transport = chooseTransport(request.headers.get('transport'), this.link.udpServed);
        if (!transport)
          return refuse(
            461,
            `no transport served in "${(request.headers.get('transport') ?? '').slice(0, 120)}"` +
              (this.link.udpServed ? '' : ' (RTSPS serves TCP interleaved only)'),
          );
        if (this.publish.announced) return this.publish.setup(target.track, request.uri, transport);
        return this.play.setup(target.track, transport);
      }
      case 'PLAY':
        return this.play.play();
      default:
        return this.publish.record();
    }
  }

  private keepalive(request: RtspRequest): RtspReply {
    const session = request.headers.get('session')?.split(';')[0]?.trim();
    if (session !== undefined && session !== this.id)
      return refuse(454, `an unknown session ${session.slice(0, 40)}`);
    return { status: 200 };
  }
}
