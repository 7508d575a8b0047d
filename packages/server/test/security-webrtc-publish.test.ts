import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { MediaStreamTrack, RTCPeerConnection } from 'werift';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { streamStats } from './media-helpers.js';
import { type WebrtcClient, webrtcPublisher } from './webrtc-client.js';

/** ffmpeg processes whose parent is `pid`. */
function ffmpegChildren(pid: number): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces, so fields are read after its last ')'.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && comm === 'ffmpeg') count++;
    } catch {
      // The process ended while being read.
    }
  }
  return count;
}

/** UDP sockets held by `pid`: a peer connection gathers its ICE candidates on some. */
function udpSockets(pid: number): number {
  const inodes = new Set<string>();
  for (const table of ['udp', 'udp6']) {
    const lines = readFileSync(`/proc/${pid}/net/${table}`, 'utf8').trim().split('\n').slice(1);
    for (const line of lines) inodes.add(line.trim().split(/\s+/)[9]!);
  }
  let count = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode && inodes.has(inode)) count++;
    } catch {
      // The descriptor closed while being read.
    }
  }
  return count;
}

/** A browser's offer (VP8 and Opus, send only), made once: the flood needs no media behind it. */
async function browserOffer(): Promise<string> {
  const pc = new RTCPeerConnection({ iceUseIpv6: false });
  pc.addTransceiver(new MediaStreamTrack({ kind: 'video' }), { direction: 'sendonly' });
  pc.addTransceiver(new MediaStreamTrack({ kind: 'audio' }), { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  const sdp = pc.localDescription!.sdp;
  await pc.close();
  return sdp;
}

interface Attempt {
  socket: WebSocket;
  /** The server's first message. */
  first: Promise<unknown>;
  /** The close code. */
  closed: Promise<number>;
}

/** Opens the publish socket of `path`, sending `offer` (if any) as it opens. */
function attempt(server: RunningServer, path: string, offer?: string): Attempt {
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/webrtc/publish/${path}`);
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  const first = new Promise<unknown>((resolve, reject) => {
    socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString())));
    socket.once('error', reject);
  });
  if (offer) socket.once('open', () => socket.send(JSON.stringify({ type: 'offer', sdp: offer })));
  return { socket, first, closed };
}

describe('security: WebRTC publish is authorized before any work', () => {
  let server: RunningServer;
  const clients: WebrtcClient[] = [];

  beforeAll(async () => {
    server = await startServer({
      config:
        `${minimalConfig}live live {\n  password right;\n  except blocked;\n  source_timeout 2;\n}\n` +
        `stream cam {\n  publish_enabled true;\n  password s3cret;\n  static true;\n}\n`,
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.stop()));
    await server?.cleanup();
  });

  it('15 wrong-password offers start no ffmpeg and no peer connection', async () => {
    const pid = server.process.pid!;
    const offer = await browserOffer();
    // Sampled all along the flood: a process or socket that lives a moment is seen.
    const seen = { ffmpeg: 0, udp: 0 };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        seen.ffmpeg = Math.max(seen.ffmpeg, ffmpegChildren(pid));
        seen.udp = Math.max(seen.udp, udpSockets(pid));
        // A sampling period, not a wait for a condition: /proc is read 50 times a second.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const replies: unknown[] = [];
    // Waves of 3, under the per-address cap on setups: each is refused for its password.
    for (let wave = 0; wave < 5; wave++) {
      const paths = [0, 1, 2].map((i) =>
        i === 0 ? 'cam?password=nope' : `live/w${wave * 3 + i}?password=wrong`,
      );
      const attempts = paths.map((path) => attempt(server, path, offer));
      replies.push(...(await Promise.all(attempts.map((a) => a.first))));
      for (const a of attempts) a.socket.close();
      await Promise.all(attempts.map((a) => a.closed));
    }
    sampling = false;
    await sampler;
    expect(replies).toEqual(Array(15).fill({ type: 'error', message: 'wrong or missing password' }));
    expect(seen).toEqual({ ffmpeg: 0, udp: 0 });
    expect(server.output().match(/refused: wrong or missing password/g)?.length).toBe(15);
    // Nothing was created for the location's names.
    const lives = (await (await server.api('/flussonic/api/read_config')).json()) as {
      lives?: Record<string, { streams?: Record<string, unknown> }>;
    };
    expect(Object.keys(lives.lives?.live?.streams ?? {})).toEqual([]);
  }, 60_000);

  it("refuses a name in the location's except before any work, with the right password", async () => {
    const blocked = attempt(server, 'live/blocked?password=right', await browserOffer());
    expect(await blocked.first).toEqual({
      type: 'error',
      message: 'location live does not accept publishing live/blocked (except)',
    });
    expect(await blocked.closed).toBe(1008);
  });

  it('writes a client-chosen stream name escaped in the log: a %0A in the path forges no line', async () => {
    const forged = attempt(
      server,
      'live/x%0Aforged%20by%20the%20client?password=wrong',
      await browserOffer(),
    );
    // Refused (a wrong password, or a name the config's rules refuse): what matters here is the log.
    expect(await forged.first).toMatchObject({ type: 'error' });
    await forged.closed;
    expect(server.output()).toContain('webrtc publish live/x\\nforged by the client from 127.0.0.1 refused');
    expect(server.output()).not.toMatch(/^forged by the client/m);
  });

  it('refuses a name of many-byte characters with a close reason the protocol takes (≤ 123 bytes)', async () => {
    const wide = attempt(
      server,
      `live/${encodeURIComponent('é'.repeat(100))}?password=wrong`,
      await browserOffer(),
    );
    expect(await wide.first).toMatchObject({ type: 'error' });
    expect(await wide.closed).toBe(1008);
    expect((await server.api('/flussonic/api/server')).status).toBe(200);
  });

  it('refuses a 5th setup from one address with a clear message; a right-password publisher still works', async () => {
    // Four sockets that never send their offer hold the address's four places…
    const idle = [0, 1, 2, 3].map(() => attempt(server, 'cam'));
    await Promise.all(idle.map((a) => new Promise((resolve) => a.socket.once('open', resolve))));
    const fifth = attempt(server, 'cam?password=s3cret', await browserOffer());
    expect(await fifth.first).toEqual({
      type: 'error',
      message: 'too many WebRTC publishes being set up from 127.0.0.1 (at most 4 at once)',
    });
    expect(await fifth.closed).toBe(1008);
    expect(server.output()).toMatch(/webrtc publish cam from 127\.0\.0\.1 refused: too many WebRTC/);
    // …until the server closes them for sending no offer (10 s).
    for (const a of idle) expect(await a.first).toEqual({ type: 'error', message: 'no offer within 10 s' });
    expect(await Promise.all(idle.map((a) => a.closed))).toEqual([1008, 1008, 1008, 1008]);

    const client = await webrtcPublisher(
      `${server.url.replace(/^http/, 'ws')}/webrtc/publish/cam?password=s3cret`,
    );
    clients.push(client);
    expect((await client.reply).type).toBe('answer');
    // Two encoders (the client's VP8, the server's H.264) on a machine that may be loaded.
    await waitFor(async () => (await streamStats(server, 'cam')).alive, 60_000);
  }, 120_000);
});
