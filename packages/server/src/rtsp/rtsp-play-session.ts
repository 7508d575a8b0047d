import type { FeedPlayer } from './rtsp-feed.js';
import type { RtspPlayers, RtspViewer } from './rtsp-play.js';
import type { RtspRequest } from './rtsp-request.js';
import { refuse, type RtspReply } from './rtsp-response.js';
import { baseUrl, type RtspTarget, type RtspTransport } from './rtsp-url.js';
import { describeSdp } from './sdp.js';
import type { RtspLink } from './rtsp-session.js';

/**
 * The play side of one RTSP connection: DESCRIBE authorizes (play gate, session type 'rtsp') and
 * answers the stream's SDP, SETUP takes each track's transport, PLAY joins the stream's feed.
 */
export class RtspPlaySession {
  private viewer: RtspViewer | undefined;
  private base = '';
  private readonly transports = new Map<number, RtspTransport>();
  private player: FeedPlayer | undefined;

  constructor(
    private readonly players: RtspPlayers,
    private readonly link: RtspLink,
  ) {}

  get playing(): boolean {
    return this.player !== undefined;
  }

  get trackCount(): number {
    return this.viewer?.feed.described?.length ?? 0;
  }

  async describe(request: RtspRequest, target: RtspTarget): Promise<RtspReply> {
    if (this.player) return refuse(455, 'DESCRIBE while playing');
    const answer = await this.players.authorize({
      stream: target.stream,
      token: target.query.token,
      ip: this.link.address,
      userAgent: request.headers.get('user-agent') ?? '',
    });
    if ('refused' in answer)
      return refuse(answer.status, `play of ${target.stream} refused: ${answer.refused}`);
    this.release();
    this.viewer = answer;
    const tracks = await answer.feed.whenDescribed(this.link.limits.describeWaitMs);
    if (this.viewer !== answer) return refuse(455, 'a second DESCRIBE came meanwhile');
    if (!tracks || tracks.length === 0)
      return refuse(503, `stream ${target.stream} has no H.264, HEVC or AAC track to describe yet`);
    this.base = baseUrl(request.uri);
    return {
      status: 200,
      headers: { 'Content-Type': 'application/sdp', 'Content-Base': this.base },
      body: describeSdp(target.stream, tracks, answer.feed.sdpSessionId),
    };
  }

  setup(track: number | undefined, transport: RtspTransport): RtspReply {
    if (!this.viewer || this.player) return refuse(455, 'SETUP without a DESCRIBE first');
    const index = track ?? (this.trackCount === 1 ? 0 : undefined);
    if (index === undefined || index >= this.trackCount)
      return refuse(404, `no track ${track ?? '(none named)'}`);
    if (transport.lower === 'tcp' && this.link.channelTaken(transport.channels, this.transports))
      return refuse(461, `interleaved channels ${transport.channels.join('-')} are in use`);
    this.transports.set(index, transport);
    return { status: 200, headers: { Transport: this.link.transportHeader(transport) } };
  }

  play(): RtspReply {
    const viewer = this.viewer;
    if (!viewer || this.transports.size === 0) return refuse(455, 'PLAY without SETUP');
    if (this.player) return { status: 200, headers: { Range: 'npt=0.000-' } };
    const starts = viewer.feed.starts();
    const info = [...this.transports.keys()]
      .sort((a, b) => a - b)
      .map(
        (i) =>
          `url=${this.base}trackID=${i};seq=${starts[i]?.sequence ?? 0};rtptime=${starts[i]?.timestamp ?? 0}`,
      );
    const player = this.feedPlayer(viewer);
    this.player = player;
    return {
      status: 200,
      headers: { Range: 'npt=0.000-', 'RTP-Info': info.join(',') },
      after: () => {
        this.link.started();
        viewer.feed.add(player, Date.now());
      },
    };
  }

  /** An RTCP packet on one of this player's channels (receiver reports): the player is alive. */
  ownsChannel(channel: number): boolean {
    for (const t of this.transports.values())
      if (t.lower === 'tcp' && t.channels.includes(channel)) return true;
    return false;
  }

  end(): void {
    if (this.player) this.viewer?.feed.remove(this.player);
    this.player = undefined;
    this.release();
  }

  private release(): void {
    this.viewer?.release();
    this.viewer = undefined;
  }

  private feedPlayer(viewer: RtspViewer): FeedPlayer {
    const send = (track: number, packet: Buffer, rtcp: boolean): boolean => {
      const transport = this.transports.get(track);
      if (!transport) return true;
      if (!viewer.sent(packet.length)) {
        this.link.close('its session was closed by the operator');
        return false;
      }
      if (transport.lower === 'tcp') return this.link.interleave(transport.channels[rtcp ? 1 : 0], packet);
      return this.link.sendUdp(packet, transport.clientPorts[rtcp ? 1 : 0], rtcp);
    };
    return {
      rtp: (track, packet) => send(track, packet, false),
      rtcp: (track, packet) => send(track, packet, true),
      end: (reason) => this.link.close(reason),
    };
  }
}
