import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { PublishHandler } from '../ingest/rtmp/rtmp-server.js';
import { publishRequestFor } from '../ingest/webrtc/webrtc-socket.js';
import { authorizedPublish } from './play-gate.js';
import type { PlayAuth } from './play-auth.js';

type SocketHandler = (socket: WebSocket, request: FastifyRequest) => void;

/**
 * Publish authorization for WebRTC publishers. Their publish entry is synchronous (taken once
 * media flows), so the check is asked as the socket opens — an HTTP backend's answer is then in
 * the session's cache when the publish is taken; a publish whose answer has still not come is
 * refused rather than let through.
 */
export function webrtcPublishGate(
  auth: PlayAuth,
  accept: PublishHandler,
  make: (publish: PublishHandler) => SocketHandler,
): SocketHandler {
  const handler = make((request) => {
    const answer = authorizedPublish(auth, request, () => accept(request));
    return answer instanceof Promise ? { refused: 'publish authorization has not answered yet' } : answer;
  });
  return (socket, request) => {
    const name = (request.params as Record<string, string | undefined>)['*'] ?? '';
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries((request.query ?? {}) as Record<string, unknown>))
      if (typeof v === 'string') query[k] = v;
    // Asked now for its answer to be ready (cached) when the publish is taken.
    if (name) void authorizedPublish(auth, publishRequestFor(name, query, request.ip), () => ({}));
    handler(socket, request);
  };
}
