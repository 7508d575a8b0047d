import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Engine } from '../engine/engine.js';
import type { ClientSession, ClientSessions } from './client-sessions.js';
import type { DashPackagers } from './dash-packager.js';
import { waitForFirstMedia } from './first-media-wait.js';
import { refuse, send } from './respond.js';

/** /{name}/index.mpd and its fragments. A manifest request wakes an on-demand stream, as for HLS. */
export async function serveDash(
  engine: Engine,
  dash: DashPackagers,
  sessions: ClientSessions,
  name: string,
  resource: string,
  session: ClientSession,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // dash.js reads the Date header to place the live edge when it has no other time source; an
  // embed on another site can read it only when exposed (else dash.js error 16 on every refresh).
  res.setHeader('access-control-expose-headers', 'Date');
  const query = new URLSearchParams(req.url?.split('?')[1] ?? '');
  // The MPD's UTCTiming time source (http-xsdate): the server's clock, to the millisecond.
  if (resource === 'index.mpd' && query.has('utc'))
    return send(sessions, session, req, res, 'text/plain', new Date().toISOString(), 'no-cache');
  if (resource === 'index.mpd') {
    const runtime = engine.touch(name);
    if (!runtime || runtime.spec.disabled) return refuse(res, 404, `stream ${name} is disabled`);
    // The packager starts from a keyframe: wait for the stream to have one.
    if (!(await waitForFirstMedia(runtime, session, 10_000)))
      return refuse(res, 404, `stream ${name} has no media yet`);
    const token = query.get('token');
    const timeUrl = `index.mpd?utc${token === null ? '' : `&token=${encodeURIComponent(token)}`}`;
    const manifest = await dash.manifest(runtime, timeUrl);
    if (!manifest) return refuse(res, 404, `stream ${name} has no DASH output (its codecs can't go in MP4)`);
    return send(sessions, session, req, res, 'application/dash+xml', manifest, 'no-cache');
  }
  const runtime = engine.get(name);
  const period = Number(query.get('p') ?? 0);
  const data = runtime && Number.isSafeInteger(period) && (await dash.file(runtime, resource, period));
  if (!data) return refuse(res, 404, `${resource} of ${name} is not (or no longer) available`);
  send(
    sessions,
    session,
    req,
    res,
    resource.startsWith('init') ? 'video/mp4' : 'video/iso.segment',
    data,
    'max-age=60',
  );
}
