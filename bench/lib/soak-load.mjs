// The soak bench's kinds of traffic, each a loop that runs until `until()` says stop and counts
// what the server answered in `tally` ('<kind> <answer>' → count). Every loop is bounded: a fixed
// number of clients at once, a pause between rounds, a timeout on every request; 127.0.0.1 only.
import { spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { connect } from 'node:net';
import { auth, sleep } from './media.mjs';

const REQUEST_TIMEOUT_MS = 10_000;

export function tallyOf() {
  const counts = new Map();
  return {
    counts,
    add: (key) => counts.set(key, (counts.get(key) ?? 0) + 1),
  };
}

/** `fetch` with a timeout; resolves to the answer's status or the error's code, never throws. */
async function ask(url, init = {}) {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    await response.arrayBuffer();
    return String(response.status);
  } catch (error) {
    return error?.cause?.code ?? error?.name ?? 'error';
  }
}

/** Runs `round` over and over with `pauseMs` between rounds, `clients` of them at once. */
async function loop(until, clients, pauseMs, round) {
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (!until()) {
        await round(client);
        await sleep(pauseMs);
      }
    }),
  );
}

/**
 * RTMP publishers of the test pattern coming and going: `slots` of them at once, each publishing
 * into the `live` location for 5–20 s under a fresh name, one round in five with a wrong password
 * into the guarded stream (refused). The kept names let players ask for streams that exist.
 */
export function publishers({ rtmpUrl, until, tally, slots = 2, live }) {
  return loop(until, slots, 500, async (slot) => {
    const refused = randomInt(5) === 0;
    const name = `p${slot}-${randomInt(1e6)}`;
    const url = refused ? `${rtmpUrl}/guarded?password=wrong` : `${rtmpUrl}/live/${name}`;
    const child = spawn(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'quiet', '-nostdin', '-re'],
        ...['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=15', '-f', 'lavfi', '-i', 'sine=frequency=440'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '15', '-c:a', 'aac'],
        ...['-f', 'flv', url],
      ],
      { stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (!refused) live.add(name);
    const ended = await Promise.race([
      exited.then(() => true),
      sleep(5000 + randomInt(15_000)).then(() => false),
    ]);
    live.delete(name);
    if (!ended) child.kill('SIGKILL');
    await exited;
    tally.add(
      refused ? `publish refused, ffmpeg ${ended ? 'ended' : 'kept'}` : `publish ${ended ? 'cut' : 'ok'}`,
    );
  });
}

/** HLS players (playlist and its newest segment) and MPEG-TS players (64 KB, then hang up). */
export function players({ base, until, tally, live }) {
  return loop(until, 2, 300, async () => {
    const names = ['demo', ...[...live].map((n) => `live/${n}`)];
    const name = names[randomInt(names.length)];
    if (randomInt(2) === 0) {
      const playlistUrl = `${base}/${name}/index.m3u8`;
      let text = '';
      try {
        const response = await fetch(playlistUrl, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        text = await response.text();
        tally.add(`hls playlist ${response.status}`);
      } catch (error) {
        tally.add(`hls playlist ${error?.cause?.code ?? error?.name}`);
      }
      const segment = text.split('\n').findLast((line) => line && !line.startsWith('#'));
      if (segment) tally.add(`hls segment ${await ask(new URL(segment, playlistUrl).href)}`);
      return;
    }
    const player = new AbortController();
    const timer = setTimeout(() => player.abort(), REQUEST_TIMEOUT_MS);
    try {
      const response = await fetch(`${base}/${name}/mpegts`, { signal: player.signal });
      const reader = response.body.getReader();
      let received = 0;
      while (received < 64 * 1024) {
        const { done, value } = await reader.read();
        if (done) break;
        received += value.length;
      }
      tally.add(`mpegts ${response.status}${received >= 64 * 1024 ? '' : ' short'}`);
    } catch (error) {
      tally.add(`mpegts ${error?.name === 'AbortError' ? 'timeout' : (error?.cause?.code ?? 'error')}`);
    } finally {
      clearTimeout(timer);
      player.abort();
    }
  });
}

/** Config edits through the API: a stream added, read back with the whole config, removed. */
export function apiEdits({ base, until, tally }) {
  const modify = (delta) =>
    ask(`${base}/flussonic/api/modify_config`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(delta),
    });
  return loop(until, 1, 1000, async () => {
    const name = `edit${randomInt(1e6)}`;
    tally.add(
      `modify_config add ${await modify({ streams: { [name]: { urls: [{ url: 'udp://239.9.9.9:5000' }] } } })}`,
    );
    tally.add(
      `read_config ${await ask(`${base}/flussonic/api/read_config`, { headers: { authorization: auth } })}`,
    );
    tally.add(`modify_config remove ${await modify({ streams: { [name]: null } })}`);
  });
}

/** Console logins, right and wrong (the wrong ones meet the server's login backoff). */
export function logins({ base, until, tally, password }) {
  return loop(until, 1, 1000, async () => {
    for (const [what, pw] of [
      ['right', password],
      ['wrong', `not-${password}`],
    ]) {
      const status = await ask(`${base}/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
        body: new URLSearchParams({ login: 'admin', password: pw }).toString(),
      });
      tally.add(`login ${what} ${status}`);
    }
  });
}

/** Writes `bytes` to a TCP port and closes; resolves with how the connection ended. */
function sendRaw(port, bytes) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (how) => {
      socket.destroy();
      resolve(how);
    };
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => done('timeout'));
    socket.on('error', (error) => done(error.code ?? 'error'));
    socket.on('close', () => done('closed by server'));
    socket.on('connect', () => {
      socket.write(bytes);
      // Half-close: the server sees the end of what we send, and answers or closes.
      socket.end();
    });
    socket.on('data', () => {});
  });
}

/** Random bytes at the RTMP port, garbage HTTP, and oversized bodies with and without credentials. */
export function malformed({ base, httpPort, rtmpPort, until, tally }) {
  const garbage = [
    () => randomBytes(1 + randomInt(4096)),
    () => Buffer.from(`GET /${randomBytes(8).toString('hex')} HTTP/9.9\r\nHost: ::::\r\n\r\n`),
    () => Buffer.from(`\x00\x01 NOT HTTP\r\n${'X-Long: y\r\n'.repeat(200)}\r\n`),
    () => Buffer.from('POST /flussonic/api/modify_config HTTP/1.1\r\nContent-Length: -1\r\n\r\n{'),
  ];
  return loop(until, 1, 1000, async () => {
    tally.add(`rtmp random bytes: ${await sendRaw(rtmpPort, randomBytes(1 + randomInt(8192)))}`);
    tally.add(`http garbage: ${await sendRaw(httpPort, garbage[randomInt(garbage.length)]())}`);
    const big = 'x'.repeat(8 * 1024 * 1024);
    const withAuth = randomInt(2) === 0;
    const status = await ask(`${base}/flussonic/api/modify_config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(withAuth ? { authorization: auth } : {}) },
      body: `{"streams":"${big}"}`,
    });
    tally.add(`8 MB body ${withAuth ? 'admin' : 'anonymous'} ${status}`);
  });
}
