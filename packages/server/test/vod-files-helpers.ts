import { randomBytes } from 'node:crypto';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { basicAuth, type RunningServer } from './harness.js';

export const API = '/flussonic/api';
export const VIEW = { login: 'viewer', password: 'view-secret-pw' };
export const MB = 1024 * 1024;
export const viewAuth = () => basicAuth(VIEW.login, VIEW.password);

/** A config with one VOD `vod` over `roots`, the admin and a view-only login. */
export const vodConfig = (roots: readonly string[]) =>
  `http {http};\nedit_auth admin test-secret-pw;\nview_auth ${VIEW.login} ${VIEW.password};\n` +
  `file vod {\n${roots.map((r) => `  path ${r};\n`).join('')}}\n`;

/** A multipart/form-data body's framing around file parts (the data goes between head and tail). */
export function multipart(names: readonly string[]) {
  const boundary = `----sluice${randomBytes(8).toString('hex')}`;
  const head = (name: string) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    );
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    head,
    between: (name: string) => Buffer.concat([Buffer.from('\r\n'), head(name)]),
    tail: Buffer.from(`\r\n--${boundary}--\r\n`),
    names,
  };
}

/** A whole multipart body of small files. */
export function multipartOf(files: readonly { name: string; data: Buffer }[]) {
  const form = multipart(files.map((f) => f.name));
  const parts: Buffer[] = [];
  files.forEach((f, i) => parts.push(i === 0 ? form.head(f.name) : form.between(f.name), f.data));
  parts.push(form.tail);
  return { contentType: form.contentType, body: Buffer.concat(parts) };
}

export interface UploadTarget {
  prefix?: string;
  path?: string;
  subpath?: string;
  sizes?: string;
  authorization?: string;
}

/** Upload headers as the console sends them (values percent-encoded once). */
export const uploadHeaders = (target: UploadTarget, contentType: string): Record<string, string> => ({
  'content-type': contentType,
  'x-prefix': encodeURIComponent(target.prefix ?? 'vod'),
  'x-path': encodeURIComponent(target.path ?? '0'),
  'x-subpath': encodeURIComponent(target.subpath ?? ''),
  'x-requested-with': 'XMLHttpRequest',
  'cache-control': 'no-cache',
  ...(target.sizes !== undefined ? { 'x-file-sizes': target.sizes } : {}),
  ...(target.authorization ? { authorization: target.authorization } : {}),
});

/** POST upload of small files. */
export async function upload(
  server: RunningServer,
  files: { name: string; data: Buffer }[],
  target: UploadTarget = {},
) {
  const { contentType, body } = multipartOf(files);
  const sizes = target.sizes ?? files.map((f) => `${encodeURIComponent(f.name)}:${f.data.length}`).join('|');
  return server.api(`${API}/upload`, {
    method: 'POST',
    headers: uploadHeaders({ ...target, sizes }, contentType),
    body,
  });
}

/** The query string of a files API call. */
export const query = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');

/**
 * Every entry under `dir` (links not followed) with its size, or its link target, or its content
 * for small files: two equal snapshots mean nothing was added, removed or changed there.
 */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (at: string, rel: string) => {
    for (const name of (await readdir(at)).sort()) {
      const path = join(at, name);
      const key = rel ? `${rel}/${name}` : name;
      const info = await lstat(path);
      if (info.isSymbolicLink()) out[key] = `-> ${await readlink(path)}`;
      else if (info.isDirectory()) {
        out[key] = 'dir';
        await walk(path, key);
      } else
        out[key] =
          info.size <= 4096 ? `file ${(await readFile(path)).toString('base64')}` : `file ${info.size}`;
    }
  };
  await walk(dir, '');
  return out;
}

/** Names of upload temp files (hidden `.NAME.upload-<random>`) under `dir`, at any depth. */
export async function tempFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true }))
    if (/\.upload-[0-9a-f]+$/.test(entry)) found.push(entry);
  return found;
}
