import type { z } from 'zod';

/** The API prefix ({api_base} of spec 000 §7). */
export const API_BASE = '/flussonic/api';

/** A non-OK answer (spec 000 §7: raised as an error), carrying the server's own message when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Shown when a call got no answer; forms keep their edits, so the operator can save again later. */
export const SERVER_UNREACHABLE = 'The server is unreachable.';
export const SERVER_UNREACHABLE_ON_SAVE =
  'The server is unreachable: nothing was saved, your changes are kept here.';

export const isAuthFailure = (error: unknown) =>
  error instanceof ApiError && (error.status === 401 || error.status === 403);

/**
 * Sent on every call: the server refuses a cookie-authorised call that changes something without
 * it, since another site's page can't add a header without the server's consent (CSRF).
 */
export const CONSOLE_HEADERS = { 'x-requested-with': 'sluice' } as const;

/**
 * Same-origin fetch; the session cookie authorises it (spec 000 §7: same-origin credentials).
 * Throws ApiError on a non-OK answer.
 */
export async function request(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const [k, v] of Object.entries(CONSOLE_HEADERS)) if (!headers.has(k)) headers.set(k, v);
  const response = await fetch(path, { ...init, headers, credentials: 'same-origin' }).catch(() => {
    // fetch rejects only when no answer came at all (server down, network gone): its "Failed to
    // fetch" tells the operator nothing, and a form keeps its unsaved edits for a later Save.
    const reading = (init.method ?? 'GET').toUpperCase() === 'GET';
    throw new ApiError(0, reading ? SERVER_UNREACHABLE : SERVER_UNREACHABLE_ON_SAVE, undefined);
  });
  if (!response.ok) throw await toApiError(response);
  return response;
}

async function toApiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the text itself is the body.
  }
  const message =
    typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string'
      ? (body as { error: string }).error
      : `${response.status} ${response.statusText}`;
  return new ApiError(response.status, message, body);
}

/** GET or POST to the API, the answer parsed with `schema`. */
export async function requestJson<T>(path: string, schema: z.ZodType<T>, init?: RequestInit): Promise<T> {
  const response = await request(`${API_BASE}${path}`, init);
  return schema.parse(await response.json());
}

export const jsonBody = (value: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value),
});

export const textBody = (text: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  body: text,
});
