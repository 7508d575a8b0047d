import type { PublishAnswer } from '../engine/publish-slots.js';
import type { PublishHandler, PublishRequest } from '../ingest/rtmp/rtmp-server.js';
import type { WebrtcPublishDeps } from '../ingest/webrtc/publish-setups.js';
import { authorizedPublish } from './play-gate.js';
import type { PlayAuth } from './play-auth.js';

/** What the gate needs of the engine: its checks before any work, and its publish entry. */
export interface PublishEntry {
  publishRefusal(request: PublishRequest): string | undefined;
  acceptPublish(request: PublishRequest): PublishAnswer;
}

/**
 * Publish authorization for WebRTC publishers, through the one gate (play-gate.ts). `authorize`
 * is asked when the offer comes, before the socket starts a peer connection or an ffmpeg: routing
 * and the password (the engine's), then the stream's auth settings (an HTTP backend's answer is
 * awaited, and cached for the session). `publish` is taken once media flows and asks the gate
 * again, then answered from that cache; an answer that has expired meanwhile and not come back
 * yet is a refusal rather than let through.
 */
export function webrtcPublishGate(
  auth: PlayAuth,
  engine: PublishEntry,
): Pick<WebrtcPublishDeps, 'authorize' | 'publish'> {
  const publish: PublishHandler = (request) => {
    const answer = authorizedPublish(auth, request, () => engine.acceptPublish(request));
    return answer instanceof Promise ? { refused: 'publish authorization has not answered yet' } : answer;
  };
  return {
    authorize: (request) => {
      const refused = engine.publishRefusal(request);
      if (refused) return refused;
      const answer = authorizedPublish(auth, request, () => ({}));
      const why = (a: object) => ('refused' in a ? String(a.refused) : undefined);
      return answer instanceof Promise ? answer.then(why) : why(answer);
    },
    publish,
  };
}
