import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { type WebrtcPublishReply, webrtcPublishOffer } from '@sluice/api';
import type { PublishSetups } from './publish-setups.js';
import type { WebrtcPublish } from './webrtc-publish.js';

export { publishRequestFor } from './publish-setups.js';

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
 * The websocket at /webrtc/publish/{name}: a browser's WebRTC publish (spec 001 §7), kept beside
 * WHIP (whip-handler.ts, which the console uses) for clients written against it. Like an RTMP
 * publish it needs no admin login: the stream decides (publishing accepted, ?password= when set).
 * The first message is the offer; the answer or an error follows; the socket then lives as long
 * as the publish. Checks, caps and the publish itself are WHIP's (publish-setups.ts).
 */
export function webrtcSocketHandler(setups: PublishSetups) {
  return (socket: WebSocket, request: FastifyRequest): void => {
    const params = request.params as Record<string, string | undefined>;
    const streamName = params['*'] ?? '';
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

    const entered = setups.enter(request.ip, streamName);
    if (typeof entered !== 'function') return refuse(entered.refused, CLOSE_REFUSED);
    // Released once the stream takes the media, or the attempt ends, whichever comes first.
    const release = entered;
    const offerTimer = setTimeout(() => {
      const why = `no offer within ${OFFER_TIMEOUT_MS / 1000} s`;
      setups.refusedLine(streamName, request.ip, why);
      refuse(why, CLOSE_REFUSED);
    }, OFFER_TIMEOUT_MS);
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
      if (!parsed?.success) {
        release();
        return refuse('expected {"type":"offer","sdp":"…"}', CLOSE_REFUSED);
      }
      const result = await setups.start({
        streamName,
        query,
        ip: request.ip,
        offer: parsed.data.sdp,
        release,
        gone: () => closed,
        onEnd: (reason, refused) => {
          if (refused) refuse(reason, CLOSE_REFUSED);
          else if (socket.readyState === socket.OPEN) socket.close(CLOSE_ENDED, closeReason(reason));
        },
      });
      if ('refused' in result)
        return refuse(result.refused, result.status >= 500 ? CLOSE_FAILED : CLOSE_REFUSED);
      publish = result.publish;
      // The socket may have closed while the answer was made: the close handler had no publish yet.
      if (closed) return result.publish.close('the socket closed');
      reply({ type: 'answer', sdp: result.answer });
    };
  };
}
