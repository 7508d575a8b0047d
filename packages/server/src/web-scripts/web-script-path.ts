import { resolve, sep } from 'node:path';

/**
 * The file a request's path (below the prefix, still percent-encoded) names inside `root`, or a
 * reason it names none. Decoded once; refused: `.` and `..` parts, empty parts, NUL, a backslash
 * or a slash that arrived encoded (%2F, %5C), broken escapes. The joined path is checked to lie
 * under the root as well, so a rule missed here still can't leave the folder (symlinks are checked
 * by the server against the root's real path).
 */
export function scriptFilePath(
  root: string,
  rest: string,
): { file: string } | { refused: 'bad path' | 'not found' } {
  const raw = rest === '' || rest.endsWith('/') ? `${rest}index.html` : rest;
  const parts: string[] = [];
  for (const encoded of raw.split('/')) {
    let part: string;
    try {
      part = decodeURIComponent(encoded);
    } catch {
      return { refused: 'bad path' };
    }
    if (part === '' || part === '.' || part === '..' || /[\0/\\]/.test(part)) return { refused: 'bad path' };
    parts.push(part);
  }
  const base = resolve(root);
  const file = resolve(base, ...parts);
  if (!file.startsWith(base + sep)) return { refused: 'bad path' };
  return { file };
}

/** Content types of what a web application holds; anything else is served as bytes. */
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  wasm: 'application/wasm',
  map: 'application/json; charset=utf-8',
};

export const contentTypeOf = (file: string): string =>
  TYPES[/\.([A-Za-z0-9]+)$/.exec(file)?.[1]?.toLowerCase() ?? ''] ?? 'application/octet-stream';
