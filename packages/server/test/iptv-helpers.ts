import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { RunningServer } from './harness.js';

export interface IptvUser {
  id: number;
  name: string;
  email: string;
  key: string;
  max_sessions: number | null;
}

/** A /tv/api call with admin credentials (or those given): status and JSON body. */
export async function tvApi(
  server: RunningServer,
  path: string,
  body?: unknown,
  authorization?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await server.api(`/tv/api/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(authorization ? { authorization } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export async function createUser(
  server: RunningServer,
  fields: { name: string; email: string; max_sessions?: number },
): Promise<IptvUser> {
  const answer = await tvApi(server, 'user_create', fields);
  if (answer.status !== 200) throw new Error(`user_create: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.user as IptvUser;
}

export interface PlaylistEntry {
  attrs: Record<string, string>;
  title: string;
  url: string;
}

/** The entries of an m3u: each #EXTINF's attributes and title, and the url on the next line. */
export function parseM3u(text: string): { header: string; entries: PlaylistEntry[] } {
  const lines = text.split('\n').filter((l) => l !== '');
  const entries: PlaylistEntry[] = [];
  for (let i = 1; i < lines.length; i += 2) {
    const info = /^#EXTINF:-1 (.*),([^,]*)$/.exec(lines[i]!);
    if (!info) throw new Error(`not an #EXTINF line: ${lines[i]}`);
    const attrs = Object.fromEntries(
      [...info[1]!.matchAll(/([a-z-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    entries.push({ attrs, title: info[2]!, url: lines[i + 1]! });
  }
  return { header: lines[0]!, entries };
}

/** A continuous MPEG-TS player held open: its status, whether bytes came, and when it ended. */
export interface HeldPlayer {
  status: number;
  body: string;
  ended: Promise<number>;
  close: () => void;
}

/** `from`: the local address to connect from (127.x.y.z), so sessions of one test differ by address. */
export function holdPlayer(url: string, userAgent: string, from?: string): Promise<HeldPlayer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { headers: { 'user-agent': userAgent }, localAddress: from },
      (res: IncomingMessage) => {
        let endedAt: (at: number) => void = () => {};
        const ended = new Promise<number>((r) => (endedAt = r));
        const chunks: Buffer[] = [];
        let first = true;
        res.on('data', (chunk: Buffer) => {
          if (chunks.length < 4) chunks.push(chunk);
          if (first && (res.statusCode !== 200 || chunks.reduce((n, c) => n + c.length, 0) >= 188)) {
            first = false;
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('latin1'),
              ended,
              close: () => req.destroy(),
            });
          }
        });
        const done = () => endedAt(Date.now());
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
        res.on('end', () => {
          if (first)
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString(),
              ended,
              close: () => {},
            });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
