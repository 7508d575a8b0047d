import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { type WebrtcPublishReply, webrtcPublishOffer } from '@sluice/api';
import type { PublishHandler, PublishRequest } from '../rtmp/rtmp-server.js';
import { WebrtcPublish } from './webrtc-publish.js';

export interface WebrtcSocketDeps {
  /** The engine's publish entry (the RTMP listener's too): routes, checks the password, gives a sink. */
  publish: PublishHandler;
  /** Why routing alone refuses a publish (no stream or location takes the path), checked before any work. */
  refusal: (request: PublishRequest) => string | undefined;
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
  log: { notice(message: string): void };
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
 * as the publish.
 */
export function webrtcSocketHandler(deps: WebrtcSocketDeps) {
  // Streams with a WebRTC publish being set up or on: a second offer for one is refused before a
  // peer connection and an ffmpeg are started for it.
  const busy = new Set<string>();
  return (socket: WebSocket, request: FastifyRequest): void => {
    const params = request.params as Record<string, string | undefined>;
    const streamName = params['*'] ?? '';
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries((request.query ?? {}) as Record<string, unknown>))
      if (typeof v === 'string') query[k] = v;
    let publish: WebrtcPublish | undefined;
    const reply = (message: WebrtcPublishReply) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
    };
    const refuse = (message: string, code: number) => {
      reply({ type: 'error', message });
      socket.close(code, message.slice(0, 120));
    };

    let offered = false;
    socket.on('message', (data: Buffer) => {
      if (offered) return;
      offered = true;
      void take(data);
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
      const refused =
        deps.refusal(target) ??
        (busy.has(streamName) ? `${streamName} is already being published` : undefined);
      if (refused) {
        deps.log.notice(`webrtc publish ${streamName} from ${request.ip} refused: ${refused}`);
        return refuse(refused, CLOSE_REFUSED);
      }
      busy.add(streamName);
      const current = new WebrtcPublish({
        acquire: () => deps.publish(target),
        ffmpegPath: deps.ffmpegPath,
        env: deps.env,
        log: (line) => deps.log.notice(`webrtc publish ${streamName}: ${line}`),
        onEnd: (reason, refused) => {
          busy.delete(streamName);
          deps.log.notice(
            `webrtc publish ${streamName} from ${request.ip} ${refused ? 'refused' : 'ended'}: ${reason}`,
          );
          if (refused) refuse(reason, CLOSE_REFUSED);
          else if (socket.readyState === socket.OPEN) socket.close(CLOSE_ENDED, reason.slice(0, 120));
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
    socket.on('close', () => publish?.close('the socket closed'));
  };
}
