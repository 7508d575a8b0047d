import { stat } from 'node:fs/promises';
import { HttpError } from '../http/errors.js';
import { codeOf } from './vod-paths.js';
import type { VodRoots } from './vod-roots.js';

/** A file found under a VOD's roots: its path, and its size and mtime as found. */
export interface LocatedFile {
  absolute: string;
  sizeBytes: number;
  mtimeMs: number;
}

export type Located = { file: LocatedFile } | { status: number; error: string };

/**
 * The file `parts` names under VOD `prefix` (its roots searched in order, vod-roots.ts), with its
 * size and mtime; `{status, error}` naming it otherwise: 400/403 for a path that may not name a
 * file there (a symlink out of the root among them), 404 when no root has it, 500 when it can't be
 * read. `name` (PREFIX/PATH) is what the answers call the file: never the server's own path.
 */
export async function locateVodFile(
  roots: VodRoots,
  prefix: string,
  parts: readonly string[],
  name: string,
): Promise<Located> {
  try {
    const absolute = await roots.locate(prefix, parts.join('/'));
    if (absolute === undefined) return { status: 404, error: `file ${name} is not found` };
    const info = await stat(absolute);
    if (!info.isFile()) return { status: 404, error: `file ${name} is not found` };
    return { file: { absolute, sizeBytes: info.size, mtimeMs: info.mtimeMs } };
  } catch (error) {
    if (error instanceof HttpError) return { status: error.statusCode, error: publicReason(error, name) };
    const code = codeOf(error);
    // Gone between the search and the stat: as if it was never there.
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 404, error: `file ${name} is not found` };
    return { status: 500, error: `file ${name} can't be read: ${code}` };
  }
}

/**
 * What a player is told of a refused path: the lexical reasons (400) quote only the request's own
 * path, but the others name the VOD's directory on this server, which a player has no business
 * knowing (the files API, behind credentials, says it).
 */
function publicReason(error: HttpError, name: string): string {
  if (error.statusCode === 400) return `${name}: ${error.message}`;
  if (error.statusCode === 404) return `file ${name} is not found`;
  return `${name}: the path leads outside the VOD's directory or can't be resolved`;
}
