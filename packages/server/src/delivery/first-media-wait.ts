import type { StreamRuntime } from '../engine/stream-runtime.js';
import type { ClientSession } from './client-sessions.js';

/**
 * Waits up to `timeoutMs` for a woken stream's first playlist, the waiting request counted as an
 * open response meanwhile: the player is there, so clients_timeout must not stop the stream before
 * it has made a segment (a cold start on a busy machine outlasts a short clients_timeout, and each
 * retry of the player would then start the stream again only to see it stopped).
 */
export async function waitForFirstMedia(
  runtime: StreamRuntime,
  session: ClientSession,
  timeoutMs: number,
): Promise<boolean> {
  session.openResponses++;
  try {
    return await runtime.waitForPlaylist(timeoutMs);
  } finally {
    session.openResponses--;
  }
}
