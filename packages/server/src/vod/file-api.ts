import { lstat, mkdir, readdir, realpath, rmdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '@sluice/api';
import { HttpError } from '../http/errors.js';
import { releaseBodyDeadline } from '../http/connection-limits.js';
import type { OnRequestHook } from '../http/guard.js';
import { parseFileSizes, refuseBeyondFreeSpace } from './file-api-sizes.js';
import { receiveUpload, UPLOAD_TEMP_NAME } from './file-api-upload.js';
import { codeOf, isInside, newNameProblem, resolveInRoot } from './vod-paths.js';
import { VodRoots } from './vod-roots.js';

/** One entry of list_files (COMMON16 "Files API"; spec 002 §3 "Listing response"). */
export interface FileEntry {
  name: string;
  type: 'file' | 'directory';
  prefix: string;
  /** Bytes, files only. */
  size?: number;
  /** Modification time, unix seconds. */
  mtime: number;
}

const API = '/flussonic/api';

/** A query parameter given once; '' when absent. */
function queryText(request: FastifyRequest, key: string): string {
  const value = (request.query as Record<string, unknown> | undefined)?.[key];
  if (value === undefined) return '';
  if (typeof value !== 'string') throw new HttpError(400, `give ${key} once`);
  return value;
}

/**
 * A header's value, percent-decoded once (the console sends encodeURIComponent'd names; bytes
 * sent raw are read as UTF-8). '' when absent.
 */
function headerText(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  if (value === undefined) return '';
  if (typeof value !== 'string') throw new HttpError(400, `give the ${name} header once`);
  try {
    return decodeURIComponent(Buffer.from(value, 'latin1').toString('utf8'));
  } catch {
    throw new HttpError(400, `the ${name} header has broken percent-encoding`);
  }
}

const required = (value: string, what: string): string => {
  if (value === '') throw new HttpError(400, `give ${what}`);
  return value;
};

/**
 * The upload's first onRequest hook: every refusal (no credentials, view only, a bad path, no room)
 * closes the connection, so Node does not read the rest of a large body to throw it away. The
 * handler lifts it once the upload is in.
 */
const closeOnRefusal: OnRequestHook = async (_request, reply) => {
  void reply.header('connection', 'close');
};

/** An onRequest hook refusing (415) anything but a multipart form, before a byte of it is read. */
const multipartOnly: OnRequestHook = async (request, reply) => {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'multipart/form-data') return;
  return reply
    .status(415)
    .header('connection', 'close')
    .send({ error: `upload takes a multipart/form-data body, not ${type || 'no content-type'}` });
};

/** The files API: list_files, remove_file, make_dir and upload over the config's VOD directories. */
export function fileApiHandlers(config: () => Config) {
  let seen: Config | undefined;
  const vods = new VodRoots();
  const roots = (): VodRoots => {
    const now = config();
    if (now !== seen) vods.update(now);
    seen = now;
    return vods;
  };
  /** The root a call names (prefix and which source path) and `rel` resolved inside it. */
  const locate = async (prefix: string, which: string, rel: string) => {
    const { vod, root } = roots().root(required(prefix, 'the VOD prefix'), which || '0');
    return { vod, root, ...(await resolveInRoot(root, rel)) };
  };
  const directory = async (path: string, rel: string) => {
    const info = await stat(path).catch((error: unknown) => {
      if (codeOf(error) === 'ENOENT') throw new HttpError(404, `no directory '${rel}' in this VOD path`);
      throw error;
    });
    if (!info.isDirectory()) throw new HttpError(400, `'${rel}' is not a directory`);
  };

  return {
    list: async (request: FastifyRequest): Promise<{ files: FileEntry[] }> => {
      const subpath = queryText(request, 'subpath');
      const at = await locate(queryText(request, 'prefix'), queryText(request, 'path'), subpath);
      await directory(at.path, subpath || '/');
      const files: FileEntry[] = [];
      for (const entry of await readdir(at.path, { withFileTypes: true })) {
        if (UPLOAD_TEMP_NAME.test(entry.name)) continue;
        const path = join(at.path, entry.name);
        // Links are followed only to places inside the root; the rest are left out, never stat'ed.
        if (entry.isSymbolicLink()) {
          const real = await realpath(path).catch(() => undefined);
          if (real === undefined || !isInside(at.rootReal, real)) continue;
        }
        const info = await stat(path).catch(() => undefined);
        if (!info || !(info.isFile() || info.isDirectory())) continue;
        const mtime = Math.floor(info.mtimeMs / 1000);
        files.push(
          info.isFile()
            ? { name: entry.name, type: 'file', prefix: at.vod.prefix, size: info.size, mtime }
            : { name: entry.name, type: 'directory', prefix: at.vod.prefix, mtime },
        );
      }
      files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return { files };
    },

    /** Removes a file, a link, or an empty directory. */
    remove: async (request: FastifyRequest) => {
      const subpath = required(queryText(request, 'subpath'), 'the file to remove (subpath)');
      const which = queryText(request, 'dir') || queryText(request, 'path');
      const at = await locate(queryText(request, 'prefix'), which, subpath);
      const info = await lstat(at.path).catch((error: unknown) => {
        if (codeOf(error) === 'ENOENT') throw new HttpError(404, `no file '${subpath}' in this VOD path`);
        throw error;
      });
      if (!info.isDirectory()) await unlink(at.path);
      else
        await rmdir(at.path).catch((error: unknown) => {
          if (codeOf(error) === 'ENOTEMPTY' || codeOf(error) === 'EEXIST')
            throw new HttpError(409, `directory '${subpath}' is not empty: remove its files first`);
          throw error;
        });
      return { ok: true };
    },

    /** Creates a directory (its parent must be there). */
    makeDir: async (request: FastifyRequest) => {
      const subpath = required(queryText(request, 'subpath'), 'the new directory (subpath)');
      const name = subpath.split('/').pop()!;
      const problem = newNameProblem(name);
      if (problem) throw new HttpError(400, problem);
      const at = await locate(queryText(request, 'prefix'), queryText(request, 'path'), subpath);
      await mkdir(at.path, { mode: 0o755 }).catch((error: unknown) => {
        const code = codeOf(error);
        if (code === 'EEXIST') throw new HttpError(409, 'This name is already taken');
        if (code === 'ENOENT' || code === 'ENOTDIR')
          throw new HttpError(404, `no directory to make '${subpath}' in`);
        throw error;
      });
      return { ok: true };
    },

    /** Multipart upload into X-Subpath, streamed to disk (file-api-upload.ts). */
    upload: async (request: FastifyRequest, reply: FastifyReply) => {
      const subpath = headerText(request, 'x-subpath');
      const at = await locate(headerText(request, 'x-prefix'), headerText(request, 'x-path'), subpath);
      await directory(at.path, subpath || '/');
      const sizes = parseFileSizes(request.headers['x-file-sizes'] as string | undefined);
      if (sizes) await refuseBeyondFreeSpace(at.path, sizes.total);
      releaseBodyDeadline(request.raw);
      const files = await receiveUpload(request.raw, { dir: at.path, declared: sizes?.byName });
      reply.removeHeader('connection');
      return { files };
    },
  };
}

/** Registers the files API: credentials for all, edit rights for the calls that change files. */
export async function registerFileApi(
  app: FastifyInstance,
  deps: { config: () => Config; view: OnRequestHook; edit: OnRequestHook },
): Promise<void> {
  const files = fileApiHandlers(deps.config);
  app.get(`${API}/list_files`, { onRequest: deps.view }, files.list);
  app.post(`${API}/remove_file`, { onRequest: deps.edit }, files.remove);
  app.post(`${API}/make_dir`, { onRequest: deps.edit }, files.makeDir);
  // The upload body is read by the handler as it arrives: this scope's multipart "parser" reads
  // nothing, so no body limit applies and nothing is buffered; the guard has run before it.
  await app.register(async (scope) => {
    scope.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null, undefined));
    scope.post(`${API}/upload`, { onRequest: [closeOnRefusal, deps.edit, multipartOnly] }, files.upload);
  });
}
