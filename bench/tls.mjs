// TLS: HTTPS segment delivery and TLS handshakes of Sluice beside nginx (Debian's) in the same run,
// with the same certificate (the one Sluice made at first start, copied to nginx) and the same
// negotiated protocol and cipher (the client pins what Sluice chose; both are printed).
//   delivery    keep-alive HTTPS clients (node https.Agent, HTTP/1.1) fetching the live segments of
//               a ~2 Mbit/s stream round-robin: requests/s, GiB/s, server CPU seconds per GiB
//   handshakes  a new TLS connection each time (no session resumption): handshakes/s, server CPU
//               per 1000 handshakes, on Sluice's HTTPS and RTMPS ports and nginx's HTTPS port
// Server CPU is read from /proc/<pid>/stat (Sluice: its node process, less its idle rate measured
// first; nginx: master and its one worker — worker_processes 1, as Sluice runs one event loop).
// Usage: npm run bench -- tls [--seconds N] [--clients N]   (127.0.0.1 only; starts and stops all)
import { spawn, spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import {
  clipBytesPerSecond,
  cpuSeconds,
  freePort,
  makeClip,
  sleep,
  startSluice,
  stop,
} from './lib/media.mjs';

const arg = (name, otherwise) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : otherwise;
};
const SECONDS = arg('seconds', 15);
const CLIENTS = arg('clients', 16);
const GIB = 1024 ** 3;

/** One GET through a keep-alive agent; resolves with the status and body bytes (0 on failure). */
function get(agent, url) {
  return new Promise((resolve) => {
    const req = request(url, { agent }, (res) => {
      let bytes = 0;
      res.on('data', (c) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode, bytes }));
      res.on('error', () => resolve({ status: 0, bytes }));
    });
    req.on('error', () => resolve({ status: 0, bytes: 0 }));
    req.end();
  });
}

/** CPU seconds of a set of processes (pids read each time: nginx's worker). */
const cpuOf = (pids) => pids().reduce((sum, pid) => sum + cpuSeconds(pid), 0);

/** Runs `work` (a load of SECONDS) and measures the server's CPU and the bench's own over it. */
async function measured(pids, work) {
  const [cpu0, self0, t0] = [cpuOf(pids), process.cpuUsage(), performance.now()];
  const result = await work();
  const wallS = (performance.now() - t0) / 1000;
  const self = process.cpuUsage(self0);
  return {
    ...result,
    wallS,
    cpuS: cpuOf(pids) - cpu0,
    clientCpuS: (self.user + self.system) / 1e6,
  };
}

/** CLIENTS keep-alive clients fetching `urls` round-robin for SECONDS. */
async function deliver(urls, tlsOptions) {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS, rejectUnauthorized: false, ...tlsOptions });
  const deadline = performance.now() + SECONDS * 1000;
  let [count, bytes, errors, next] = [0, 0, 0, 0];
  const client = async () => {
    while (performance.now() < deadline) {
      const answer = await get(agent, urls[next++ % urls.length]);
      count++;
      bytes += answer.bytes;
      if (answer.status !== 200) errors++;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  agent.destroy();
  return { count, bytes, errors };
}

/** One full TLS handshake on a new connection; resolves true when it completed. */
const handshake = (port, tlsOptions) =>
  new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ...tlsOptions }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** CLIENTS loops of new connections for SECONDS. */
async function handshakes(port, tlsOptions) {
  const deadline = performance.now() + SECONDS * 1000;
  let [count, errors] = [0, 0];
  const client = async () => {
    while (performance.now() < deadline) {
      if (await handshake(port, tlsOptions)) count++;
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return { count, errors };
}

/** The protocol and cipher a default client negotiates with the server at `port`. */
const negotiated = (port, tlsOptions = {}) =>
  new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ...tlsOptions }, () => {
      const chosen = { protocol: socket.getProtocol(), cipher: socket.getCipher().standardName };
      socket.destroy();
      resolve(chosen);
    });
    socket.once('error', reject);
  });

// ---- Sluice: a live stream from a 2 Mbit/s clip over UDP, segments kept for the run (segment_count 30).
const clip = makeClip(20);
const [udpPort, httpsPort, rtmpsPort] = [await freePort(), await freePort(), await freePort()];
const sluice = await startSluice(
  `http {http};\nhttps ${httpsPort};\nrtmps ${rtmpsPort};\nedit_auth admin bench-pw;\n` +
    `stream live {\n  url udp://127.0.0.1:${udpPort};\n  static true;\n  segment_count 30;\n}\n`,
);
const sender = spawn(
  process.execPath,
  ['bench/lib/udp-sender.mjs', clip, String(udpPort), '1', String(clipBytesPerSecond(clip))],
  { stdio: 'ignore' },
);
let www;
let nginx;
try {
  let uris = [];
  for (let t = 0; t < 40 && uris.length < 4; t++) {
    await sleep(1000);
    const playlist = await fetch(`${sluice.base}/live/video.m3u8`).then((r) => (r.ok ? r.text() : ''));
    uris = playlist.split('\n').filter((l) => l.endsWith('.ts'));
  }
  if (uris.length < 4) throw new Error('the stream made no segments');
  uris = uris.slice(-4);
  const sluicePid = () => [sluice.child.pid];
  // The same protocol and cipher on both sides: what Sluice picks for a default client, pinned.
  const chosen = await negotiated(httpsPort);
  const pinned = {
    minVersion: chosen.protocol,
    maxVersion: chosen.protocol,
    ciphers: chosen.cipher,
  };

  // ---- nginx: the same segment files, the same certificate and key, one worker.
  www = await mkdtemp(join(tmpdir(), 'sluice-bench-tls-'));
  await chmod(www, 0o755);
  await mkdir(join(www, 'live'), { mode: 0o755 });
  const sizes = [];
  for (const uri of uris) {
    const body = Buffer.from(await (await fetch(`${sluice.base}/live/${uri}`)).arrayBuffer());
    sizes.push(body.length);
    await writeFile(join(www, 'live', uri), body, { mode: 0o644 });
  }
  await copyFile(join(sluice.dir, 'tls', 'server.crt'), join(www, 'server.crt'));
  await copyFile(join(sluice.dir, 'tls', 'server.key'), join(www, 'server.key'));
  const nginxPort = await freePort();
  nginx = await startNginx(www, nginxPort);
  const nginxPids = () => [nginx.child.pid, ...nginx.workers()];
  const nginxChosen = await negotiated(nginxPort, pinned);

  // Sluice's own cost of taking the stream in and packaging it, per second, taken off its figures.
  const idle = await measured(sluicePid, () => sleep(3000));
  const idleRate = idle.cpuS / idle.wallS;
  const net = (run, pids) => (pids === sluicePid ? run.cpuS - idleRate * run.wallS : run.cpuS);

  const rows = [];
  const delivery = async (label, base, pids) => {
    const urls = uris.map((u) => `${base}/live/${u}`);
    const run = await measured(pids, () => deliver(urls, pinned));
    const cpu = net(run, pids);
    rows.push([
      label,
      (run.count / run.wallS).toFixed(0),
      (run.bytes / GIB / run.wallS).toFixed(3),
      (cpu / (run.bytes / GIB)).toFixed(2),
      `${((100 * cpu) / run.wallS).toFixed(0)}%`,
      `${((100 * run.clientCpuS) / run.wallS).toFixed(0)}%`,
      String(run.errors),
    ]);
  };
  await delivery('Sluice HTTPS', `https://127.0.0.1:${httpsPort}`, sluicePid);
  await delivery('nginx HTTPS', `https://127.0.0.1:${nginxPort}`, nginxPids);

  const shakes = [];
  const handshakeRow = async (label, port, pids) => {
    const run = await measured(pids, () => handshakes(port, pinned));
    const cpu = net(run, pids);
    shakes.push([
      label,
      (run.count / run.wallS).toFixed(0),
      ((1000 * cpu) / Math.max(1, run.count)).toFixed(3),
      `${((100 * cpu) / run.wallS).toFixed(0)}%`,
      `${((100 * run.clientCpuS) / run.wallS).toFixed(0)}%`,
      String(run.errors),
    ]);
  };
  await handshakeRow('Sluice HTTPS port', httpsPort, sluicePid);
  await handshakeRow('Sluice RTMPS port', rtmpsPort, sluicePid);
  await handshakeRow('nginx HTTPS port', nginxPort, nginxPids);

  const kb = sizes.map((s) => (s / 1024).toFixed(0)).join(', ');
  console.log(
    `TLS: ${chosen.protocol} ${chosen.cipher} (nginx: ${nginxChosen.protocol} ${nginxChosen.cipher}); ` +
      `certificate ${sluice.dir}/tls/server.crt on both; ${SECONDS} s per row, ${CLIENTS} clients, 127.0.0.1`,
  );
  console.log(
    `Sluice idle cost (ingest + packaging) ${(100 * idleRate).toFixed(1)}% of a core, taken off its rows`,
  );
  console.log(`\nHTTPS segment delivery (keep-alive, HTTP/1.1; ${uris.length} live segments of ${kb} KB):`);
  table(['', 'requests/s', 'GiB/s', 'CPU s per GiB', 'server CPU', 'client CPU', 'errors'], rows);
  console.log('\nTLS handshakes (a new connection each, no resumption):');
  table(['', 'handshakes/s', 'CPU s per 1000', 'server CPU', 'client CPU', 'errors'], shakes);
  console.log(
    '\n(server CPU is % of one core; the clients run in this process on the same machine: a client ' +
      'near 100% means the figure is the client’s limit, not the server’s)',
  );
} finally {
  sender.kill('SIGKILL');
  if (nginx) await nginx.stop();
  await sluice.stop();
  await rm(sluice.dir, { recursive: true, force: true });
  if (www) await rm(www, { recursive: true, force: true });
}

/** nginx in the foreground on a temp conf: the files of `root` over HTTPS on `port`, one worker. */
async function startNginx(root, port) {
  const conf = join(root, 'nginx.conf');
  await writeFile(
    conf,
    `daemon off;\nmaster_process on;\nworker_processes 1;\npid ${root}/nginx.pid;\n` +
      `error_log ${root}/error.log warn;\nevents { worker_connections 4096; }\n` +
      `http {\n  access_log off;\n  keepalive_requests 1000000;\n  types { video/mp2t ts; }\n` +
      `  server {\n    listen 127.0.0.1:${port} ssl;\n    root ${root};\n` +
      `    ssl_certificate ${root}/server.crt;\n    ssl_certificate_key ${root}/server.key;\n` +
      `    ssl_protocols TLSv1.2 TLSv1.3;\n    ssl_session_cache off;\n    ssl_session_tickets off;\n  }\n}\n`,
  );
  const child = spawn('nginx', ['-c', conf, '-p', root], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let t = 0; t < 50; t++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: see ${root}/error.log`);
    if (
      await negotiated(port).then(
        () => true,
        () => false,
      )
    )
      break;
    await sleep(100);
  }
  const workers = () =>
    spawnSync('pgrep', ['-P', String(child.pid)])
      .stdout.toString()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  return { child, workers, stop: () => stop(child) };
}

function table(head, rows) {
  const all = [head, ...rows];
  const widths = head.map((_, i) => Math.max(...all.map((r) => String(r[i]).length)));
  for (const r of all) console.log(r.map((c, i) => String(c).padEnd(widths[i])).join('  '));
}
