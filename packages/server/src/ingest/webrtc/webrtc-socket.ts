import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { type WebrtcPublishReply, webrtcPublishOffer } from '@sluice/api';
import type { PublishHandler, PublishRequest } from '../rtmp/rtmp-server.js';
import { logText } from '../rtmp/log-text.js';
import { NegotiationLimit } from './negotiation-limit.js';
import { WebrtcPublish } from './webrtc-publish.js';

export interface WebrtcSocketDeps {
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
/** A socket that has sent no offer by then is closed: it would hold a place under the caps. */
export const OFFER_TIMEOUT_MS = 10_000;

/**
 * A websocket close reason: at most 123 bytes of UTF-8 (RFC 6455 §5.5), cut between characters;
 * `ws` throws on a longer one, and a reason can hold a client-chosen name.
 */
export function closeReason(message: string): string {
  let bytes = 0;
  let end = 0;
  for (const char of message) {
    bytes += Buffer.byteLength(char);
    if (bytes > 123) break;
    end += char.length;
  }
  return message.slice(0, end);
}

/** Close codes: 1000 the publish ended, 1008 refused, 1011 the server failed. */
const CLOSE_ENDED = 1000;
const CLOSE_REFUSED = 1008;
const CLOSE_FAILED = 1011;

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

/**
 * The websocket at /webrtc/publish/{name}: a browser's WebRTC publish (spec 001 §7). Like an RTMP
 * publish it needs no admin login: the stream decides (publishing accepted, ?password= when set).
 * The first message is the offer; the answer or an error follows; the socket then lives as long
 * as the publish. Nothing is started (peer connection, UDP ports, ffmpeg) before the publish is
 * authorized, and the attempts being set up are capped per address and in all.
 */
export function webrtcSocketHandler(deps: WebrtcSocketDeps) {
  // Streams with a WebRTC publish being set up or on: a second offer for one is refused before a
  // peer connection and an ffmpeg are started for it.
  const busy = new Set<string>();
  const limit = deps.limit ?? new NegotiationLimit(MAX_SETUPS_PER_IP, MAX_SETUPS);
  return (socket: WebSocket, request: FastifyRequest): void => {
    const params = request.params as Record<string, string | undefined>;
    const streamName = params['*'] ?? '';
    // The path is the client's: written to the log escaped, so a %0A in it forges no line.
    const logged = logText(streamName);
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries((request.query ?? {}) as Record<string, unknown>))
      if (typeof v === 'string') query[k] = v;
    let publish: WebrtcPublish | undefined;
    let closed = false;
    const reply = (message: WebrtcPublishReply) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
    };
    const refuse = (message: string, code: number) => {
      reply({ type: 'error', message });
      socket.close(code, closeReason(message));
    };
    const refused = (why: string) => {
      deps.log.notice(`webrtc publish ${logged} from ${request.ip} refused: ${logText(why)}`);
      refuse(why, CLOSE_REFUSED);
    };

    const entered = limit.enter(request.ip);
    if (typeof entered !== 'function') return refused(entered.refused);
    // Released once the stream takes the media, or the attempt ends, whichever comes first.
    const release = entered;
    const offerTimer = setTimeout(
      () => refused(`no offer within ${OFFER_TIMEOUT_MS / 1000} s`),
      OFFER_TIMEOUT_MS,
    );
    socket.on('close', () => {
      closed = true;
      clearTimeout(offerTimer);
      release();
      publish?.close('the socket closed');
    });

    let offered = false;
    socket.on('message', (data: Buffer) => {
      if (offered) return;
      offered = true;
      clearTimeout(offerTimer);
      void take(data).catch((error: Error) => {
        release();
        refuse(`can't answer the offer: ${error.message}`, CLOSE_FAILED);
      });
    });
    const take = async (data: Buffer): Promise<void> => {
      let parsed;
      try {
        parsed = webrtcPublishOffer.safeParse(JSON.parse(data.toString('utf8')));
      } catch {
        parsed = undefined;
      }
      if (!parsed?.success) return refuse('expected {"type":"offer","sdp":"…"}', CLOSE_REFUSED);
      if (!streamName) return refuse('no stream name in the path', CLOSE_REFUSED);
      const target = publishRequestFor(streamName, query, request.ip);
      // Authorization first: a publisher refused here has cost a lookup and nothing else.
      const denied = await deps.authorize(target);
      if (closed) return;
      const why = denied ?? (busy.has(streamName) ? `${streamName} is already being published` : undefined);
      if (why) return refused(why);
      busy.add(streamName);
      const current = new WebrtcPublish({
        acquire: () => deps.publish(target),
        ffmpegPath: deps.ffmpegPath,
        env: deps.env,
        log: (line) => deps.log.notice(`webrtc publish ${logged}: ${line}`),
        onLive: release,
        onEnd: (reason, refused) => {
          busy.delete(streamName);
          release();
          deps.log.notice(
            `webrtc publish ${logged} from ${request.ip} ${refused ? 'refused' : 'ended'}: ${logText(reason)}`,
          );
          if (refused) refuse(reason, CLOSE_REFUSED);
          else if (socket.readyState === socket.OPEN) socket.close(CLOSE_ENDED, closeReason(reason));
        },
      });
      publish = current;
      try {
        reply({ type: 'answer', sdp: await current.answer(parsed.data.sdp) });
      } catch (error) {
        current.close((error as Error).message);
        refuse(`can't answer the offer: ${(error as Error).message}`, CLOSE_FAILED);
      }
    };
  };
}
