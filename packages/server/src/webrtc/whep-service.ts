import type { IncomingMessage } from 'node:http';
import { authorizedSession, whenReady, type SessionOrRefusal } from '../auth/play-gate.js';
import type { MediaInfo } from '@sluice/api';
import type { Decision, PlayAuth } from '../auth/play-auth.js';
import type { ClientSession, ClientSessions } from '../delivery/client-sessions.js';
import { waitForFirstMedia } from '../delivery/first-media-wait.js';
import { protocolAllowed } from '../delivery/protocols.js';
import type { Engine } from '../engine/engine.js';
import type { StreamRuntime } from '../engine/stream-runtime.js';
import { type CodecChoice, chooseCodecs, type OfferedMedia, restrictOffer } from './whep-sdp.js';
import { type PipelineContext, WhepPipeline } from './whep-pipeline.js';
import type { WhepViewer } from './whep-viewer.js';

/** werift is loaded at the first WHEP offer, not at start (see ingest/webrtc/publish-setups.ts). */
let loading: Promise<typeof import('./whep-viewer.js')> | undefined;
const loadViewer = () => (loading ??= import('./whep-viewer.js'));

/** How long an offer for a stream that is just starting waits for its first media. */
const FIRST_MEDIA_WAIT_MS = 10_000;
/** How often viewers' bytes go to their sessions, and closed sessions end their viewers. */
const REPORT_MS = 1000;

export interface WhepServiceDeps extends PipelineContext {
  engine: Engine;
  sessions: ClientSessions;
  auth: PlayAuth;
  /** Whether a stream's HLS is encrypted (drm aes128): then no other output hands out the clear stream. */
  encrypted: (name: string) => boolean;
}

/** A WHEP resource (RFC 9725 §4): one viewer, addressed by its Location. */
export interface WhepResource {
  stream: string;
  viewer: WhepViewer;
  session: ClientSession;
  etag: string;
}

export type OfferResult = { resource: WhepResource; answer: string } | { status: number; error: string };

/** The player's identity as HLS knows it: ip, user agent, and the token of the query or the Bearer header. */
export interface WhepWho {
  ip: string;
  userAgent: string;
  token: string | undefined;
  referer: string | undefined;
}

/**
 * WHEP playback: each offer is authorized and given a session as an HLS request is (type
 * 'webrtc'), wakes an on-demand stream, and becomes a viewer of the stream's one pipeline.
 */
export class WhepService {
  private readonly pipelines = new Map<StreamRuntime, WhepPipeline>();
  private readonly resources = new Map<string, WhepResource>();
  private readonly reporter: NodeJS.Timeout;

  constructor(private readonly deps: WhepServiceDeps) {
    this.reporter = setInterval(() => this.report(), REPORT_MS);
    this.reporter.unref();
  }

  get viewerCount(): number {
    return this.resources.size;
  }

  resource(id: string): WhepResource | undefined {
    return this.resources.get(id);
  }

  /** The stream a path names, if any (live streams of every kind: configured, published, mirrored). */
  stream(name: string): StreamRuntime | undefined {
    return this.deps.engine.get(name);
  }

  /** Authorization and the session; a refusal says why (403, 429, 404). */
  admit(name: string, who: WhepWho): Promise<SessionOrRefusal | { refused: string; status: number }> {
    const runtime = this.deps.engine.get(name);
    if (!runtime) return Promise.resolve({ refused: `no stream ${name}`, status: 404 });
    if (!protocolAllowed(runtime.spec.protocols, 'webrtc'))
      return Promise.resolve({ refused: `webrtc is switched off for stream ${name}`, status: 403 });
    if (this.deps.encrypted(name))
      return Promise.resolve({
        refused: `stream ${name} is encrypted (drm aes128): only HLS is served`,
        status: 403,
      });
    const request = { ...who, stream: name, type: 'webrtc' as const };
    return new Promise((resolve) =>
      whenReady(
        authorizedSession(this.deps.auth, this.deps.sessions, request, runtime.spec.maxSessions),
        resolve,
      ),
    );
  }

  /** Play authorization alone (no session): for what describes the stream, media_info.json. */
  checkPlay(name: string, who: WhepWho): string | undefined | Promise<string | undefined> {
    const decision = this.deps.auth.check({
      name,
      ip: who.ip,
      token: who.token,
      userAgent: who.userAgent,
      referer: who.referer,
      proto: 'webrtc',
      requestType: 'play',
      sessionId: '',
    });
    const why = (d: Decision) => (d.allow ? undefined : `access denied: ${d.reason}`);
    return decision instanceof Promise ? decision.then(why) : why(decision);
  }

  /** The stream's tracks as media_info describes them (none while it is not running). */
  mediaInfo(name: string): MediaInfo {
    return this.deps.engine.get(name)?.bus?.demux.mediaInfo(Date.now()) ?? { tracks: [] };
  }

  /** Starts the stream if needed, waits for its media, and answers the offer with a new viewer. */
  async offer(
    name: string,
    session: ClientSession,
    offerSdp: string,
    media: OfferedMedia[],
  ): Promise<OfferResult> {
    const runtime = this.deps.engine.touch(name);
    if (!runtime || runtime.spec.disabled) return { status: 404, error: `stream ${name} is disabled` };
    if (!(await waitForFirstMedia(runtime, session, FIRST_MEDIA_WAIT_MS)))
      return { status: 503, error: `stream ${name} has no media yet` };
    const video = runtime.bus?.demux.tracks(Date.now()).filter((t) => t.content === 'video') ?? [];
    if (video.length > 0 && !video.some((t) => t.codec === 'h264'))
      return {
        status: 422,
        error: `stream ${name} has ${video[0]!.codec} video: WebRTC playback passes H.264 through only`,
      };
    // The stream's H.264 profile (avc1.PPCCLL) ranks the offer's H.264 entries.
    const avc1 = runtime.bus?.demux.codecStrings().find((c) => c.startsWith('avc1.'));
    const choice = chooseCodecs(media, avc1 ? parseInt(avc1.slice(5, 7), 16) : undefined);
    if ('error' in choice) return { status: 400, error: choice.error };
    const { WhepViewer } = await loadViewer();
    // An audio-only stream sends no video: its audio must not wait for a first picture.
    const resource = this.open(WhepViewer, name, this.pipelineOf(runtime), session, choice, video.length > 0);
    try {
      const answer = await resource.viewer.answer(restrictOffer(offerSdp, choice));
      return { resource, answer };
    } catch (error) {
      resource.viewer.close('the offer could not be answered');
      return { status: 400, error: `the offer could not be answered: ${(error as Error).message}` };
    }
  }

  /** Ends every viewer and pipeline (the server is stopping). */
  close(): void {
    clearInterval(this.reporter);
    for (const resource of [...this.resources.values()]) resource.viewer.close('server stopping');
    for (const pipeline of this.pipelines.values()) pipeline.stop();
    this.pipelines.clear();
  }

  private open(
    Viewer: typeof WhepViewer,
    name: string,
    pipeline: WhepPipeline,
    session: ClientSession,
    choice: CodecChoice,
    hasVideo: boolean,
  ): WhepResource {
    // The viewer holds its session open (a connection, like a continuous TS player) until it ends.
    session.openResponses++;
    const viewer = new Viewer(choice, hasVideo, (reason) => {
      this.resources.delete(viewer.id);
      this.flushBytes(resource);
      session.openResponses--;
      pipeline.remove(viewer);
      this.deps.log(
        `stream ${name}: WebRTC viewer ${viewer.id.slice(0, 8)} from ${session.ip} ended (${reason})`,
      );
    });
    const resource: WhepResource = { stream: name, viewer, session, etag: `"${viewer.id.slice(0, 12)}"` };
    this.resources.set(viewer.id, resource);
    pipeline.add(viewer);
    return resource;
  }

  private pipelineOf(runtime: StreamRuntime): WhepPipeline {
    let pipeline = this.pipelines.get(runtime);
    if (!pipeline) {
      const created: WhepPipeline = new WhepPipeline(runtime, this.deps, () => {
        if (this.pipelines.get(runtime) === created) this.pipelines.delete(runtime);
      });
      pipeline = created;
      this.pipelines.set(runtime, pipeline);
    }
    return pipeline;
  }

  private report(): void {
    for (const resource of [...this.resources.values()]) {
      this.flushBytes(resource);
      // The operator closed the session (close_sessions), or the stream is gone.
      if (this.deps.sessions.isClosed(resource.session)) resource.viewer.close('session closed');
      else if (!this.deps.engine.get(resource.stream)) resource.viewer.close('stream removed');
    }
  }

  private flushBytes(resource: WhepResource): void {
    const bytes = resource.viewer.unreportedBytes;
    if (bytes === 0) return;
    resource.viewer.unreportedBytes = 0;
    this.deps.sessions.sent(resource.session, bytes, Date.now());
  }
}

/** The token of a WHEP request: `?token=`, else `Authorization: Bearer` (RFC 9725 §4.5). */
export function requestToken(req: IncomingMessage, params: URLSearchParams): string | undefined {
  const query = params.get('token');
  if (query) return query;
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return bearer?.[1];
}
