/** A keyserver that has not answered within this long failed. */
const KEYSERVER_TIMEOUT_MS = 5000;

/**
 * Fetches an AES-128 key from an aes128 stream's drm.keyserver: GET {keyserver} with the query
 * name (stream), key_id (the rotation period, see aes128.ts) and drm_id (meta.drm_id, when set);
 * the answer is the 16 key bytes, raw, or as 32 hex characters.
 */
export async function fetchKey(
  keyserver: string,
  what: { name: string; keyId: number; drmId: string | undefined },
): Promise<Buffer> {
  const url = new URL(keyserver);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`keyserver ${keyserver} is not http(s)`);
  url.searchParams.set('name', what.name);
  url.searchParams.set('key_id', String(what.keyId));
  if (what.drmId) url.searchParams.set('drm_id', what.drmId);
  const response = await fetch(url, { signal: AbortSignal.timeout(KEYSERVER_TIMEOUT_MS) });
  const body = Buffer.from(await response.arrayBuffer());
  if (!response.ok) throw new Error(`keyserver ${url.origin}${url.pathname} answered ${response.status}`);
  if (body.length === 16) return body;
  const text = body.toString('latin1').trim();
  if (/^[0-9a-fA-F]{32}$/.test(text)) return Buffer.from(text, 'hex');
  throw new Error(`keyserver ${url.origin}${url.pathname} answered ${body.length} bytes, not a 16-byte key`);
}
