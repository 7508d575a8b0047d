import { z } from 'zod';

/**
 * WebRTC publishing from a browser (spec 001 §2 Output, §7 "WebRTC publish: connects to
 * {publish endpoint}/{streamName}"): a websocket at WEBRTC_PUBLISH_PATH/{name}[?password=…]. The
 * browser sends one offer with its ICE candidates gathered; the server answers with its own
 * (gathered in full: no trickle), or with an error and closes. The publish lasts as long as the
 * socket: closing it ends the publish, and the server closes it when the publish ends.
 */
export const WEBRTC_PUBLISH_PATH = '/webrtc/publish';

export const webrtcPublishOffer = z.object({ type: z.literal('offer'), sdp: z.string().min(1) });
export type WebrtcPublishOffer = z.infer<typeof webrtcPublishOffer>;

export const webrtcPublishReply = z.discriminatedUnion('type', [
  z.object({ type: z.literal('answer'), sdp: z.string() }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type WebrtcPublishReply = z.infer<typeof webrtcPublishReply>;

/** ws(s)://host/webrtc/publish/{name}, with ?password= when the stream has one. */
export function webrtcPublishUrl(
  page: { protocol: string; host: string },
  name: string,
  password: string | undefined,
): string {
  const scheme = page.protocol === 'https:' ? 'wss:' : 'ws:';
  const path = name.split('/').map(encodeURIComponent).join('/');
  const query = password ? `?password=${encodeURIComponent(password)}` : '';
  return `${scheme}//${page.host}${WEBRTC_PUBLISH_PATH}/${path}${query}`;
}
