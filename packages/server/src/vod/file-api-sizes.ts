import { statfs } from 'node:fs/promises';
import { HttpError, formatBytes } from '../http/errors.js';

/**
 * Space an upload must leave free on the target's disk: refused up front when the declared sizes
 * (X-File-Sizes) would eat into it, stopped while writing when less than half of it is left (an
 * upload that declared less than it sends, or another writer filling the same disk).
 */
export const UPLOAD_FREE_SPACE_MARGIN_BYTES = 64 * 1024 * 1024;

/** The longest X-File-Sizes header read (the console lists every file of one upload there). */
const MAX_SIZES_HEADER_CHARS = 64 * 1024;

/**
 * The X-File-Sizes header: 'name:size|name:size' (sizes in bytes). The size is after the last ':'
 * of each pair, so names may hold ':'. Names are percent-decoded once when they decode; the map
 * holds both spellings. Undefined when the header is absent; HttpError 400 when it is malformed.
 */
export function parseFileSizes(
  header: string | undefined,
): { total: number; byName: Map<string, number> } | undefined {
  if (header === undefined) return undefined;
  if (header.length > MAX_SIZES_HEADER_CHARS)
    throw new HttpError(400, `the X-File-Sizes header is longer than ${MAX_SIZES_HEADER_CHARS} characters`);
  const byName = new Map<string, number>();
  let total = 0;
  for (const pair of header.split('|')) {
    if (pair.trim() === '') continue;
    const colon = pair.lastIndexOf(':');
    const sizeText = colon < 0 ? '' : pair.slice(colon + 1).trim();
    if (!/^\d{1,16}$/.test(sizeText))
      throw new HttpError(400, `X-File-Sizes: '${pair}' is not name:size (the size in bytes)`);
    const name = pair.slice(0, colon);
    const size = Number(sizeText);
    total += size;
    byName.set(name, size);
    const decoded = decodeOnce(name);
    if (decoded !== undefined) byName.set(decoded, size);
  }
  return { total, byName };
}

function decodeOnce(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Bytes an unprivileged writer may still put on the filesystem holding `dir`. */
export async function freeBytes(dir: string): Promise<number> {
  const fs = await statfs(dir);
  return fs.bavail * fs.bsize;
}

/** HttpError 507 unless `bytes` more fit on the disk of `dir` with the margin left free. */
export async function refuseBeyondFreeSpace(dir: string, bytes: number): Promise<void> {
  const free = await freeBytes(dir);
  if (bytes + UPLOAD_FREE_SPACE_MARGIN_BYTES <= free) return;
  throw new HttpError(
    507,
    `the upload is ${bytes} bytes but the disk of ${dir} has ${free} bytes free, ` +
      `less ${formatBytes(UPLOAD_FREE_SPACE_MARGIN_BYTES)} kept free: nothing was written`,
  );
}
