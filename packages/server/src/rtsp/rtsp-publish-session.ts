import type { MaybePromise } from '../auth/play-gate.js';
import type { AskingPublishHandler, PublishRequest, PublishSink } from '../ingest/rtmp/rtmp-server.js';
import { RtspPublish } from './rtsp-publish.js';
import type { RtspRequest } from './rtsp-request.js';
import { refuse, type RtspReply } from './rtsp-response.js';
import type { RtspLink } from './rtsp-session.js';
import type { RtspTarget, RtspTransport } from './rtsp-url.js';
import { type AnnouncedTrack, parseAnnounce } from './sdp.js';

/** The publish gate RTSP shares with WebRTC publishing (auth/webrtc-gate.ts): routing, password, auth. */
export interface RtspPublishGate {
  /** Why this publish would be refused, asked at ANNOUNCE before anything is set up. */
  authorize(request: PublishRequest): MaybePromise<string | undefined>;
  /** Takes the stream's publish slot (RECORD): the same path as an RTMP publish. */
  publish: AskingPublishHandler;
}

/** UDP RTP of a track is told from interleaved channels by this offset. */
const UDP_CHANNEL_BASE = 1000;

/**
 * The publish side of one RTSP connection: ANNOUNCE's SDP and the publish gate, SETUP of each
 * track (interleaved channels or the client's UDP port), RECORD takes the publish slot; the RTP
 * then becomes the stream's MPEG-TS in process (RtspPublish).
 */
export class RtspPublishSession {
  private request: PublishRequest | undefined;
  private tracks: AnnouncedTrack[] = [];
  private publish: RtspPublish | undefined;
  private sink: PublishSink | undefined;
  private readonly transports = new Map<number, RtspTransport>();
  private readonly udpStops: (() => void)[] = [];
  /** When media last came (ms), over TCP or UDP: a publisher over UDP says nothing on its socket. */
  lastMediaMs = 0;

  constructor(
    private readonly gate: RtspPublishGate,
    private readonly link: RtspLink,
  ) {}

  get recording(): boolean {
    return this.sink !== undefined;
  }

  get announced(): boolean {
    return this.request !== undefined;
  }

  async announce(request: RtspRequest, target: RtspTarget): Promise<RtspReply> {
    if (this.request) return refuse(455, 'a second ANNOUNCE');
    const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/sdp')
      return refuse(415, `ANNOUNCE of ${type || 'no content type'}, not application/sdp`);
    let tracks: AnnouncedTrack[];
    try {
      tracks = parseAnnounce(request.body.toString('latin1'));
    } catch (error) {
      return refuse(415, `ANNOUNCE of ${target.stream} refused: ${(error as Error).message}`);
    }
    const asked: PublishRequest = {
      app: target.app,
      name: target.name,
      query: target.query,
      remoteAddress: this.link.address,
      via: 'rtsp',
    };
    const refused = await this.gate.authorize(asked);
    if (refused) return refuse(statusOf(refused), `publish ${target.stream} refused: ${refused}`);
    this.request = asked;
    this.tracks = tracks;
    this.publish = new RtspPublish(tracks, target.stream, (ts) => this.sink?.writeTs?.(ts));
    return { status: 200 };
  }

  /** SETUP names the track by its SDP control (streamid=N, trackID=N) or by its position. */
  setup(track: number | undefined, control: string, transport: RtspTransport): RtspReply {
    const publish = this.publish;
    if (!publish || this.sink) return refuse(455, 'SETUP of a publish without ANNOUNCE');
    // The control may be relative (streamid=0) or absolute; queries (?password=) are left out.
    const bare = (url: string) => url.replace(/\?[^/]*/, '');
    let index = this.tracks.findIndex((t) => bare(control).endsWith(bare(t.control)));
    if (index < 0 && track !== undefined)
      index = this.tracks.findIndex((t) => t.control.endsWith(`=${track}`));
    if (index < 0) return refuse(404, `no announced track ${control.slice(-40)}`);
    if (transport.lower === 'tcp') {
      if (this.link.channelTaken(transport.channels, this.transports))
        return refuse(461, `interleaved channels ${transport.channels.join('-')} are in use`);
      publish.bind(transport.channels[0], this.tracks[index]!);
    } else {
      const channel = UDP_CHANNEL_BASE + index;
      publish.bind(channel, this.tracks[index]!);
      this.udpStops.push(
        this.link.receiveUdp(transport.clientPorts[0], (payload) => {
          this.lastMediaMs = Date.now();
          publish.receive(channel, payload);
        }),
      );
    }
    this.transports.set(index, transport);
    return { status: 200, headers: { Transport: `${this.link.transportHeader(transport)};mode=record` } };
  }

  async record(): Promise<RtspReply> {
    const asked = this.request;
    if (!asked || this.transports.size === 0) return refuse(455, 'RECORD without ANNOUNCE and SETUP');
    if (this.sink) return { status: 200 };
    const answer = await this.gate.publish(asked);
    const where = asked.app === 'static' ? asked.name : `${asked.app}/${asked.name}`;
    if ('refused' in answer)
      return refuse(statusOf(answer.refused), `publish ${where} refused: ${answer.refused}`);
    if (this.link.closed) {
      answer.end();
      return refuse(500, 'the connection closed meanwhile');
    }
    this.sink = answer;
    answer.attach?.(() => this.link.close('disconnected by the server'));
    this.lastMediaMs = Date.now();
    return { status: 200, after: () => this.link.started() };
  }

  /** Interleaved data: RTP of a set-up track (true), RTCP of one (ignored, true), else false. */
  interleaved(channel: number, payload: Buffer): boolean {
    for (const t of this.transports.values()) {
      if (t.lower !== 'tcp' || !t.channels.includes(channel)) continue;
      if (channel === t.channels[0] && this.sink) {
        this.lastMediaMs = Date.now();
        this.publish?.receive(channel, payload);
      }
      return true;
    }
    return false;
  }

  end(): void {
    for (const stop of this.udpStops) stop();
    this.udpStops.length = 0;
    this.sink?.end();
    this.sink = undefined;
  }
}

/** The RTSP status of a publish refusal: a stream nobody may publish to is not found. */
function statusOf(reason: string): number {
  return /^(no stream|not a valid stream name)/.test(reason) ? 404 : 403;
}
