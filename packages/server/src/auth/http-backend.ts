import type { PlayRequest } from './play-request.js';

/** What an HTTP auth backend said: allow (2xx), deny (403), or nothing usable (any other answer, an error). */
export type BackendAnswer =
  | { answer: 'allow'; userId?: string; ttlMs?: number }
  | { answer: 'deny'; ttlMs?: number }
  | { answer: 'none'; problem: string };

/** A backend that has not answered within this long counts as no answer. */
export const BACKEND_TIMEOUT_MS = 5000;

/**
 * Asks an HTTP auth backend about one play request: GET url with the query parameters of
 * Flussonic's auth backend protocol (name, ip, token, proto, request_type, session_id, referer,
 * user_agent) and the stream's auth.extra added to those already in the url. The answer may carry X-UserId (the viewer, shown
 * in sessions and history) and X-AuthDuration (seconds the answer holds).
 */
export async function askBackend(
  url: string,
  request: PlayRequest,
  extra: Readonly<Record<string, unknown>> = {},
): Promise<BackendAnswer> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { answer: 'none', problem: `backend url ${url} is not a URL` };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return { answer: 'none', problem: `backend url ${url} is not http(s)` };
  const params: Record<string, string> = {
    name: request.name,
    ip: request.ip,
    token: request.token ?? '',
    proto: request.proto,
    request_type: request.requestType,
    session_id: request.sessionId,
    referer: request.referer ?? '',
    user_agent: request.userAgent,
  };
  // auth.extra first: the request's own parameters are not the stream config's to change.
  for (const [key, value] of Object.entries(extra)) target.searchParams.set(key, String(value));
  for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
  try {
    const response = await fetch(target, { signal: AbortSignal.timeout(BACKEND_TIMEOUT_MS) });
    await response.body?.cancel();
    const seconds = Number(response.headers.get('x-authduration'));
    const ttlMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
    if (response.status >= 200 && response.status < 300) {
      const userId = response.headers.get('x-userid') ?? undefined;
      return { answer: 'allow', userId, ttlMs };
    }
    if (response.status === 403) return { answer: 'deny', ttlMs };
    return {
      answer: 'none',
      problem: `backend ${target.origin}${target.pathname} answered ${response.status}`,
    };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { answer: 'none', problem: `backend ${target.origin}${target.pathname} failed: ${why}` };
  }
}
