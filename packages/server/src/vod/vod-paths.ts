import { realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { HttpError } from '../http/errors.js';

/**
 * Resolving a path a request names (list_files' subpath, an upload's X-Subpath …) inside one VOD
 * root. Two steps: a pure lexical check that refuses anything that could name a place outside the
 * root or name it in two ways, then a check on the disk that the real path (symlinks followed) is
 * still inside the root's real path.
 */

/** Longest relative path accepted, in UTF-8 bytes (Linux PATH_MAX is 4096 with the root's part). */
export const MAX_VOD_PATH_BYTES = 2048;
/** Longest single name, in UTF-8 bytes (NAME_MAX on Linux filesystems). */
export const MAX_VOD_NAME_BYTES = 255;

/** Why `rel` may not name anything inside a root (undefined when it may), its parts when it may. */
export type LexicalCheck = { parts: string[] } | { error: string };

/**
 * The parts of `rel`, a relative path already decoded once (the query parser or the header's one
 * decode). '' is the root itself. Refused: absolute paths, '.' and '..' parts, empty parts ('a//b',
 * a trailing '/'), NUL and other control characters, backslashes, percent-escapes left after the
 * one decode ('%2e%2e', '%2f': a second decode elsewhere must not find a '..' here), names and
 * paths past the filesystem's lengths. Pure: never touches the disk.
 */
export function checkRelativePath(rel: string): LexicalCheck {
  if (typeof rel !== 'string') return { error: 'the path must be text' };
  if (rel === '') return { parts: [] };
  if (Buffer.byteLength(rel) > MAX_VOD_PATH_BYTES)
    return { error: `the path is longer than ${MAX_VOD_PATH_BYTES} bytes` };
  if (rel.includes('\0')) return { error: 'the path holds a NUL byte' };
  // eslint-disable-next-line no-control-regex
  if (/[\x01-\x1f\x7f]/.test(rel)) return { error: 'the path holds a control character' };
  if (rel.includes('\\')) return { error: `the path '${rel}' holds a backslash` };
  if (rel.startsWith('/'))
    return { error: `the path '${rel}' is absolute; it must be relative to the VOD directory` };
  if (/%[0-9a-fA-F]{2}/.test(rel))
    return { error: `the path '${rel}' still holds a percent-escape after decoding; send it encoded once` };
  const parts = rel.split('/');
  for (const part of parts) {
    const problem = nameProblem(part);
    if (problem) return { error: `${problem} in the path '${rel}'` };
  }
  return { parts };
}

/** Why one path part is not a name (undefined when it is). */
function nameProblem(part: string): string | undefined {
  if (part === '') return 'an empty part';
  if (part === '.' || part === '..') return `a '${part}' part`;
  if (Buffer.byteLength(part) > MAX_VOD_NAME_BYTES) return `a name longer than ${MAX_VOD_NAME_BYTES} bytes`;
  return undefined;
}

/**
 * Why `name` may not be the name of a new entry (an uploaded file, a new directory): besides the
 * path rules, one part only (no '/'), and no leading '.' (hidden names are this server's upload
 * temp files). Undefined when it may.
 */
export function newNameProblem(name: string): string | undefined {
  if (name === '') return 'the name is empty';
  if (name.includes('/')) return `the name '${name}' holds a '/'`;
  const check = checkRelativePath(name);
  if ('error' in check) return check.error.replace('the path', 'the name');
  if (name.startsWith('.')) return `the name '${name}' starts with a '.'`;
  return undefined;
}

/** A path resolved inside a root: where it is, through the root's real path. */
export interface ResolvedPath {
  /** The root's real path (symlinks in the root's own path followed). */
  rootReal: string;
  /**
   * The entry's path: the real path of its parent's deepest existing ancestor, then the parts not
   * there yet. The last part is not followed: removing a link removes the link, not its target.
   */
  path: string;
  /** The relative parts, as checked. */
  parts: string[];
}

/** Whether `path` is `dir` or inside it (both real, absolute paths). */
export function isInside(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/**
 * `rel` resolved inside `root`: HttpError 400 for a lexically bad path, 403 when the entry or its
 * parent leads outside the root's real path through a symlink (realpath() of the deepest existing
 * ancestor, so a symlinked directory on the way counts), 404 when the root itself is missing. The
 * entry need not exist.
 */
export async function resolveInRoot(root: string, rel: string): Promise<ResolvedPath> {
  const check = checkRelativePath(rel);
  if ('error' in check) throw new HttpError(400, check.error);
  let rootReal: string;
  try {
    rootReal = await realpath(root);
  } catch (error) {
    throw new HttpError(404, `the VOD directory ${root} can't be opened: ${codeOf(error)}`);
  }
  const parts = check.parts;
  const outside = () => new HttpError(403, `the path '${rel}' leads outside the VOD directory ${root}`);
  // The entry itself, when it is there: a link to a place outside the root is refused.
  const whole = await realpathOrMissing(join(rootReal, ...parts), rel);
  if (whole !== undefined && !isInside(rootReal, whole)) throw outside();
  if (parts.length === 0) return { rootReal, path: rootReal, parts };
  // Its parent's deepest existing ancestor: walk up until realpath() finds one (depth 0, the root, is).
  for (let depth = parts.length - 1; depth > 0; depth--) {
    const ancestor = await realpathOrMissing(join(rootReal, ...parts.slice(0, depth)), rel);
    if (ancestor === undefined) continue;
    if (!isInside(rootReal, ancestor)) throw outside();
    return { rootReal, path: join(ancestor, ...parts.slice(depth)), parts };
  }
  return { rootReal, path: join(rootReal, ...parts), parts };
}

/** realpath(path), or undefined when it (or a link on the way) leads nowhere or a file is on the way. */
async function realpathOrMissing(path: string, rel: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    // ELOOP (a link cycle), EACCES …: nothing safe can be said about where it leads.
    throw new HttpError(403, `the path '${rel}' can't be resolved: ${code}`);
  }
}

export function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException)?.code ?? String((error as Error)?.message ?? error);
}
