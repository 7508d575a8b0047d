// The upload part of the VOD bench: a 2 GiB file sent to POST /flussonic/api/upload (multipart, the
// console's headers, streamed from disk) beside `cp` of the same file on the same file system.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { basename, join } from 'node:path';
import { auth } from './media.mjs';

/** POSTs `src` as one file field to `port`'s upload into prefix vod, path 0, `subpath`. */
function upload(port, src, subpath) {
  const name = basename(src);
  const size = statSync(src).size;
  const boundary = `----sluicebench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const headers = {
    authorization: auth,
    'content-type': `multipart/form-data; boundary=${boundary}`,
    'content-length': String(head.length + size + tail.length),
    'x-prefix': 'vod',
    'x-path': '0',
    'x-subpath': encodeURIComponent(subpath),
    'x-file-sizes': `${encodeURIComponent(name)}:${size}`,
    'x-requested-with': 'XMLHttpRequest',
    'cache-control': 'no-cache',
  };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/flussonic/api/upload', headers });
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.write(head);
    const file = createReadStream(src, { highWaterMark: 1024 * 1024 });
    file.on('error', reject);
    file.pipe(req, { end: false });
    file.on('end', () => req.end(tail));
  });
}

const peakRssMb = (pid) => {
  const status = spawnSync('cat', [`/proc/${pid}/status`]).stdout.toString();
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

/** Seconds of a shell command. */
function timed(command) {
  const t0 = performance.now();
  const result = spawnSync('sh', ['-c', command]);
  if (result.status !== 0) throw new Error(`${command}: ${result.stderr}`);
  return (performance.now() - t0) / 1000;
}

/**
 * The upload on a fresh server (from `start`) into ROOT/`subpath`, then `cp` and `cp` + `sync FILE`
 * (the server flushes each upload to disk before answering) of the same file into the same
 * directory. The source is read into the page cache first, so both read it from memory.
 */
export async function measureUpload({ start, src, root, subpath }) {
  const dir = join(root, subpath);
  mkdirSync(dir, { recursive: true });
  const size = statSync(src).size;
  timed(`cat '${src}' > /dev/null`);
  const server = await start();
  let uploadS;
  let answer;
  let rss;
  try {
    const rssBefore = peakRssMb(server.child.pid);
    const t0 = performance.now();
    answer = await upload(server.port, src, subpath);
    uploadS = (performance.now() - t0) / 1000;
    rss = { before: rssBefore, peak: peakRssMb(server.child.pid) };
  } finally {
    await server.stop();
  }
  const landed = join(dir, basename(src));
  const landedSize = answer.status === 200 ? statSync(landed).size : 0;
  rmSync(landed, { force: true });
  const copy = join(dir, 'copy.bin');
  const cpS = timed(`cp '${src}' '${copy}'`);
  rmSync(copy);
  const cpSyncS = timed(`cp '${src}' '${copy}' && sync '${copy}'`);
  rmSync(dir, { recursive: true, force: true });
  return { size, status: answer.status, body: answer.body, landedSize, uploadS, cpS, cpSyncS, rss };
}
