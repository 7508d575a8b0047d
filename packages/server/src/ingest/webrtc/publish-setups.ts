import type { PublishHandler, PublishRequest } from '../rtmp/rtmp-server.js';
import { logText } from '../rtmp/log-text.js';
import { NegotiationLimit } from './negotiation-limit.js';
import { offerCodecs } from './offer-codecs.js';
import type { WebrtcPublish } from './webrtc-publish.js';

/**
 * werift (with @peculiar/x509 and its asn1 packages) is loaded at the first WebRTC publish, not at
 * start: it was the largest module load left in a server's start (issue 20, ~1.3 s at load 15).
 */
let loading: Promise<typeof import('./webrtc-publish.js')> | undefined;
const loadPublish = () => (loading ??= import('./webrtc-publish.js'));

export interface WebrtcPublishDeps {
  /**
   * Why this publish may not go ahead (routing, password, publish authorization), or undefined:
   * asked when the offer comes, before any peer connection, UDP port or ffmpeg.
   */
  authorize: (request: PublishRequest) => string | undefined | Promise<string | undefined>;
  /** The engine's publish entry (the RTMP listener's too), taken once media flows: gives a sink. */
  publish: PublishHandler;
  /** Publishes being set up at once; by default MAX_SETUPS_PER_IP per address, MAX_SETUPS in all. */
  limit?: NegotiationLimit;
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
  log: { notice(message: string): void };
}

/** Publishes being set up at once from one address: a browser sets up one, a studio a few. */
export const MAX_SETUPS_PER_IP = 4;
/** Publishes being set up at once in all: each may soon be a peer connection and an ffmpeg. */
export const MAX_SETUPS = 16;

/**
 * A stream name as a publish request, the way an RTMP URL names it: `cam1` is static/cam1 (the
 * default prefix), `live/cam1` is app live, name cam1 (a publishing location's stream).
 */
export function publishRequestFor(
  streamName: string,
  query: Record<string, string>,
  remoteAddress: string,
): PublishRequest {
  const slash = streamName.indexOf('/');
  const app = slash < 0 ? 'static' : streamName.slice(0, slash);
  const name = slash < 0 ? streamName : streamName.slice(slash + 1);
  return { app, name, query, remoteAddress, via: 'webrtc' };
}

/** One publish asked for: who, into what, and its offer. */
export interface PublishAttempt {
  streamName: string;
  query: Record<string, string>;
  ip: string;
  offer: string;
  /** From enter(): released once the stream takes the media or the attempt ends. */
  release: () => void;
  /** Whether the asker went away meanwhile (socket closed): nothing is started then. */
  gone: () => boolean;
  /** Called once when a publish that was answered ends; `refused` when the stream did not take it. */
  onEnd: (reason: string, refused: boolean) => void;
}

export type SetupResult =
  | { publish: WebrtcPublish; answer: string }
  /** status: 400/422 the offer, 403 authorization, 409 already published, 500 the server failed. */
  | { refused: string; status: number };

/**
 * What the two WebRTC publish entries share (WHIP, whip-handler.ts; the websocket, webrtc-socket.ts):
 * the caps on attempts being set up, the offer's codecs, authorization before anything is
 * started, one WebRTC publish per stream at once, and the log lines.
 */
export class PublishSetups {
  /** Streams with a WebRTC publish being set up or on: a second offer for one is refused early. */
  private readonly busy = new Set<string>();
  private readonly limit: NegotiationLimit;

  constructor(private readonly deps: WebrtcPublishDeps) {
    this.limit = deps.limit ?? new NegotiationLimit(MAX_SETUPS_PER_IP, MAX_SETUPS);
  }

  /** Counts one more attempt from `ip`: its release, or why not (logged). */
  enter(ip: string, streamName: string): (() => void) | { refused: string } {
    const entered = this.limit.enter(ip);
    if (typeof entered !== 'function') this.refusedLine(streamName, ip, entered.refused);
    return entered;
  }

  refusedLine(streamName: string, ip: string, why: string): void {
    this.deps.log.notice(`webrtc publish ${logText(streamName)} from ${ip} refused: ${logText(why)}`);
  }

  /** Checks the offer and the publish's authorization, then answers it: the publish, or why not. */
  async start(attempt: PublishAttempt): Promise<SetupResult> {
    const { streamName, ip } = attempt;
    const refuse = (refused: string, status: number): SetupResult => {
      attempt.release();
      this.refusedLine(streamName, ip, refused);
      return { refused, status };
    };
    if (!streamName) return refuse('no stream name in the path', 400);
    const codecs = offerCodecs(attempt.offer);
    if ('refused' in codecs) return refuse(codecs.refused, codecs.status);
    const target = publishRequestFor(streamName, attempt.query, ip);
    // Authorization first: a publisher refused here has cost a lookup and nothing else.
    const [denied, { WebrtcPublish }] = await Promise.all([this.deps.authorize(target), loadPublish()]);
    if (attempt.gone()) return refuse('the publisher went away', 400);
    if (denied) return refuse(denied, 403);
    if (this.busy.has(streamName)) return refuse(`${streamName} is already being published`, 409);
    this.busy.add(streamName);
    const logged = logText(streamName);
    const publish = new WebrtcPublish({
      codecs,
      acquire: () => this.deps.publish(target),
      ffmpegPath: this.deps.ffmpegPath,
      env: this.deps.env,
      log: (line) => this.deps.log.notice(`webrtc publish ${logged}: ${line}`),
      onLive: attempt.release,
      onEnd: (reason, refused) => {
        this.busy.delete(streamName);
        attempt.release();
        this.deps.log.notice(
          `webrtc publish ${logged} from ${ip} ${refused ? 'refused' : 'ended'}: ${logText(reason)}`,
        );
        attempt.onEnd(reason, refused);
      },
    });
    try {
      const answer = await publish.answer(codecs.sdp);
      const video = codecs.video
        ? codecs.video.codec === 'H264'
          ? 'H264 passed through (no re-encode)'
          : 'VP8 encoded to H.264'
        : 'no video';
      const audio = codecs.audio ? 'Opus encoded to AAC' : 'no audio';
      this.deps.log.notice(`webrtc publish ${logged} from ${ip} answered: ${video}, ${audio}`);
      return { publish, answer };
    } catch (error) {
      const why = `can't answer the offer: ${(error as Error).message}`;
      publish.close(why);
      return { refused: why, status: 500 };
    }
  }
}
