import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { lstat, open, rename, unlink } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import Busboy from 'busboy';
import { HttpError } from '../http/errors.js';
import { freeBytes, UPLOAD_FREE_SPACE_MARGIN_BYTES } from './file-api-sizes.js';
import { codeOf, newNameProblem } from './vod-paths.js';

/** An upload whose sender sends nothing for this long is dropped (its partial files removed). */
export const UPLOAD_IDLE_TIMEOUT_MS = 60_000;
/** Files one upload may carry. */
export const UPLOAD_MAX_FILES = 100;
/** Free space is looked at again after each this many bytes written. */
const FREE_SPACE_CHECK_BYTES = 64 * 1024 * 1024;

/** What a temp file of an upload in progress is called: hidden, so listings skip it. */
export const UPLOAD_TEMP_NAME = /^\..+\.upload-[0-9a-f]{16}$/;

const tempNameFor = (name: string): string => {
  // NAME_MAX is 255 bytes: a long name is cut (by characters, so UTF-8 stays whole) to leave room.
  let base = name;
  while (Buffer.byteLength(base) > 200) base = base.slice(0, -1);
  return `.${base}.upload-${randomBytes(8).toString('hex')}`;
};

interface Incoming {
  name: string;
  temp: string;
  bytes: number;
  out: WriteStream;
  written: Promise<void>;
}

export interface UploadOptions {
  /** The target directory's path (resolved inside its root). */
  dir: string;
  /** Declared sizes by file name (X-File-Sizes), when the caller sent them. */
  declared?: Map<string, number>;
  /** Default UPLOAD_IDLE_TIMEOUT_MS. */
  idleTimeoutMs?: number;
}

/**
 * Reads the multipart body of `req` as it arrives, each file part straight into a hidden temp
 * file in `dir` (`.NAME.upload-<random>`, never held in memory), and once the whole body is in,
 * fsyncs each file and renames it over its name (a file of that name is replaced only then). On
 * a malformed body, a bad name, a file past its declared size, a disk running out of room, a
 * stalled or vanished sender, every temp file is removed and nothing else is changed.
 */
export function receiveUpload(
  req: IncomingMessage,
  options: UploadOptions,
): Promise<{ name: string; size: number }[]> {
  const { dir, declared, idleTimeoutMs = UPLOAD_IDLE_TIMEOUT_MS } = options;
  return new Promise((resolve, reject) => {
    const files: Incoming[] = [];
    let failed = false;
    let sinceFreeCheck = 0;
    let parser: Busboy.Busboy;
    try {
      parser = Busboy({
        headers: req.headers,
        preservePath: true,
        defParamCharset: 'utf8',
        limits: { files: UPLOAD_MAX_FILES, fields: 50, fieldSize: 64 * 1024, parts: UPLOAD_MAX_FILES + 50 },
      });
    } catch (error) {
      reject(new HttpError(400, `the upload is no multipart form: ${(error as Error).message}`));
      return;
    }

    let idle: NodeJS.Timeout | undefined;
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(
        () =>
          fail(new HttpError(408, `the upload sent nothing for ${idleTimeoutMs / 1000} s: nothing was kept`)),
        idleTimeoutMs,
      );
    };

    const cleanup = async () => {
      clearTimeout(idle);
      for (const file of files) file.out.destroy();
      await Promise.all(files.map((f) => unlink(f.temp).catch(() => undefined)));
    };

    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      // Nothing more is read: the rest of a large body is not worth receiving to throw away.
      req.pause();
      void cleanup().then(() => reject(error));
    };

    const checkFreeSpace = () => {
      freeBytes(dir).then(
        (free) => {
          if (free < UPLOAD_FREE_SPACE_MARGIN_BYTES / 2)
            fail(new HttpError(507, `the disk of ${dir} is nearly full: the upload was stopped and removed`));
        },
        (error: unknown) => fail(error as Error),
      );
    };

    const onFile = (stream: Readable, name: string) => {
      if (failed) return void stream.resume();
      const problem = newNameProblem(name);
      if (problem) return void fail(new HttpError(400, `${problem}: nothing was written`));
      if (files.some((f) => f.name === name))
        return void fail(new HttpError(400, `the upload carries two files named '${name}'`));
      const limit = declared?.get(name);
      const temp = join(dir, tempNameFor(name));
      const out = createWriteStream(temp, { flags: 'wx', mode: 0o644 });
      const file: Incoming = {
        name,
        temp,
        bytes: 0,
        out,
        written: new Promise((done, broke) => {
          out.once('close', done);
          out.once('error', broke);
        }),
      };
      file.written.catch((error: unknown) => fail(error as Error));
      files.push(file);
      stream.on('data', (chunk: Buffer) => {
        file.bytes += chunk.length;
        sinceFreeCheck += chunk.length;
        if (limit !== undefined && file.bytes > limit)
          fail(
            new HttpError(400, `file '${name}' is larger than the ${limit} bytes X-File-Sizes gave for it`),
          );
        if (sinceFreeCheck >= FREE_SPACE_CHECK_BYTES) {
          sinceFreeCheck = 0;
          checkFreeSpace();
        }
      });
      stream.pipe(out);
    };

    parser.on('file', (_field, stream, info) => onFile(stream, info.filename ?? ''));
    parser.on('filesLimit', () =>
      fail(new HttpError(400, `an upload carries at most ${UPLOAD_MAX_FILES} files`)),
    );
    parser.on('partsLimit', () => fail(new HttpError(400, 'the upload has too many parts')));
    parser.on('error', (error: Error) =>
      fail(new HttpError(400, `the multipart body is malformed: ${error.message}`)),
    );
    parser.on('close', () => {
      if (failed) return;
      clearTimeout(idle);
      if (files.length === 0) return void fail(new HttpError(400, 'the upload carries no file'));
      Promise.all(files.map((f) => f.written))
        .then(() => (failed ? undefined : commit(dir, files)))
        .then(
          () => {
            if (!failed) resolve(files.map((f) => ({ name: f.name, size: f.bytes })));
          },
          (error: unknown) => fail(error as Error),
        );
    });
    req.on('data', touch);
    req.on('error', (error) => fail(new HttpError(400, `the upload was cut off: ${error.message}`)));
    // A sender gone before the body's end: its partial files go with it.
    req.on('close', () => {
      if (!req.complete) fail(new HttpError(400, 'the upload was cut off before its end: nothing was kept'));
    });
    touch();
    req.pipe(parser);
  });
}

/** Each temp file made durable, then renamed over its name; the directory's entries made durable. */
async function commit(dir: string, files: readonly Incoming[]): Promise<void> {
  for (const file of files) {
    const final = join(dir, file.name);
    const existing = await lstat(final).catch((error: unknown) => {
      if (codeOf(error) === 'ENOENT') return undefined;
      throw error;
    });
    if (existing?.isDirectory())
      throw new HttpError(409, `a directory named '${file.name}' is there already: nothing was written`);
    const handle = await open(file.temp, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
  for (const file of files) await rename(file.temp, join(dir, file.name));
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
