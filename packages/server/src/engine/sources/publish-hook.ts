import type { PublishRequest } from '../../ingest/rtmp/rtmp-server.js';

/** How long the on_publish handler has to answer before the publish is refused. */
const HOOK_TIMEOUT_MS = 5000;

export type PublishEvent = 'publish_start' | 'publish_stop';

/**
 * Calls the stream's on_publish handler (spec 001 §2 publishing block: "called on start and stop")
 * with a JSON body: {event, name, ip, protocol, query}. On start, any answer but 2xx refuses the
 * publish; the reason is what the operator's handler said. Only HTTP(S) handlers are supported.
 * Resolves undefined when the publish may go on, else the reason it may not.
 */
export async function callPublishHook(
  url: string,
  event: PublishEvent,
  name: string,
  request: PublishRequest,
): Promise<string | undefined> {
  if (!/^https?:\/\//i.test(url))
    return `on_publish ${url} is not an HTTP(S) URL; other handlers are not supported`;
  const protocol = request.via ?? 'rtmp';
  const body = { event, name, ip: request.remoteAddress, protocol, query: request.query };
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(HOOK_TIMEOUT_MS),
    });
    if (response.ok) return undefined;
    const said = (await response.text()).trim().slice(0, 200);
    return `on_publish answered ${response.status}${said ? `: ${said}` : ''}`;
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause;
    return `on_publish ${url} failed: ${cause?.message ?? (error as Error).message}`;
  }
}
