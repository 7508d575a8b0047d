import type { Bundle } from './bundle.js';

/** Below the console's 30 s 'Server not responding...' (spec 002 §9): the console hears our answer first. */
export const UPLOAD_TIMEOUT_MS = 25_000;
/** What a support server's answer may hold: a ticket id is short. */
const ANSWER_MAX_BYTES = 64 * 1024;
const TICKET_MAX_CHARS = 200;

export class UploadFailed extends Error {}

/** The ticket of a support server's answer: JSON {ticket} (or {id}), or the plain text itself. */
export function ticketOf(text: string): string {
  let value: unknown = text.trim();
  try {
    const parsed: unknown = JSON.parse(text);
    value =
      typeof parsed === 'object' && parsed !== null
        ? ((parsed as { ticket?: unknown; id?: unknown }).ticket ?? (parsed as { id?: unknown }).id)
        : parsed;
  } catch {
    // Plain text: the ticket as it is.
  }
  if ((typeof value !== 'string' && typeof value !== 'number') || String(value).trim() === '')
    throw new UploadFailed('the support server answered no ticket id');
  const ticket = String(value).trim();
  if (ticket.length > TICKET_MAX_CHARS)
    throw new UploadFailed('the support server answered an overlong ticket id');
  return ticket;
}

/**
 * POSTs the bundle to `support_url` as application/gzip (the comment also in the X-Sluice-Comment
 * header, URI-encoded) and returns the ticket id of the answer. Any other outcome is UploadFailed.
 */
export async function uploadBundle(url: string, bundle: Bundle, comment: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      body: bundle.bytes,
      headers: {
        'content-type': 'application/gzip',
        'content-disposition': `attachment; filename="${bundle.name}"`,
        'x-sluice-comment': encodeURIComponent(comment),
      },
      redirect: 'error',
      signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new UploadFailed(cause?.code ?? cause?.message ?? (error as Error).message);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new UploadFailed(`the support server answered ${response.status}`);
  }
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > ANSWER_MAX_BYTES) {
    await response.body?.cancel();
    throw new UploadFailed('the support server answered too much');
  }
  const text = await response.text().catch((error: Error) => {
    throw new UploadFailed(error.message);
  });
  if (text.length > ANSWER_MAX_BYTES) throw new UploadFailed('the support server answered too much');
  return ticketOf(text);
}
