import type { IncomingMessage, ServerResponse } from 'node:http';
import { whenReady } from '../auth/play-gate.js';
import { chooseCodecs, MAX_OFFER_BYTES, parseOffer } from './whep-sdp.js';
import { parseSdpFragment } from './whep-trickle.js';
import { requestToken, type WhepService, type WhepWho } from './whep-service.js';

/** Players may read the resource's address and ETag across origins (RFC 9725 §4.2 needs Location). */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, ETag, Link, Accept-Patch, X-Sid',
};
const PREFLIGHT = {
  ...CORS,
  'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Authorization, If-Match',
  'access-control-max-age': '86400',
};
/** A trickle PATCH is a few candidates. */
const MAX_PATCH_BYTES = 16 * 1024;
/** A body not sent in full within this time ends the request (a slow sender holds nothing longer). */
const BODY_TIMEOUT_MS = 10_000;

/** /{name}/whep, /{name}/whep/{resource id}, and /{name}/media_info.json (the Flussonic player's track list). */
const SHAPE = /^\/(.+)\/(?:whep(?:\/([0-9a-f]{32}))?|(media_info\.json))$/;

/**
 * WHEP (RFC 9725 for playback): POST an SDP offer to /{name}/whep, get 201 with the answer and the
 * resource's Location; PATCH it with trickled candidates, DELETE it to stop. Returns false for
 * requests it does not answer (they go on to the API).
 */
export function whepHandler(
  service: WhepService,
  log: (line: string) => void,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const match = SHAPE.exec(q < 0 ? url : url.slice(0, q));
    if (!match) return false;
    let name: string;
    try {
      name = decodeURIComponent(match[1]!);
    } catch {
      return false;
    }
    if (!service.stream(name)) {
      // Not a stream: the API's 404 (or an archive's media_info.json answered before this).
      if (req.method !== 'POST') return false;
      answer(res, 404, `no stream ${name}`, log, req);
      return true;
    }
    const params = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    const who: WhepWho = {
      ip: req.socket.remoteAddress ?? '',
      userAgent: req.headers['user-agent'] ?? '',
      token: requestToken(req, params),
      referer: req.headers.referer,
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...PREFLIGHT, 'accept-post': 'application/sdp' });
      res.end();
    } else if (match[3]) mediaInfo(service, name, who, req, res);
    else if (match[2]) resourceRequest(service, name, match[2], req, res, log);
    else if (req.method === 'POST') void post(service, name, who, req, res, log);
    else
      answer(res, 405, `${req.method} is not allowed here (POST an SDP offer)`, log, req, {
        allow: 'POST, OPTIONS',
      });
    return true;
  };
}

async function post(
  service: WhepService,
  name: string,
  who: WhepWho,
  req: IncomingMessage,
  res: ServerResponse,
  log: (line: string) => void,
): Promise<void> {
  if (!isType(req, 'application/sdp'))
    return answer(res, 415, 'the offer must be Content-Type: application/sdp', log, req);
  const body = await readBody(req, MAX_OFFER_BYTES);
  if ('status' in body) return answer(res, body.status, body.error, log, req);
  const offer = parseOffer(body.text);
  if ('error' in offer) return answer(res, 400, offer.error, log, req);
  // An offer without usable codecs is refused before anything starts (the ranking comes later).
  const usable = chooseCodecs(offer.media);
  if ('error' in usable) return answer(res, 400, usable.error, log, req);
  // Refused before anything starts: the stream wakes only for an authorized player.
  const admitted = await service.admit(name, who);
  if ('refused' in admitted)
    return answer(res, 'status' in admitted ? (admitted.status ?? 403) : 403, admitted.refused, log, req);
  const result = await service.offer(name, admitted, body.text, offer.media);
  if ('error' in result) return answer(res, result.status, result.error, log, req);
  const { resource } = result;
  const location = `/${name.split('/').map(encodeURIComponent).join('/')}/whep/${resource.viewer.id}`;
  if (res.destroyed) return resource.viewer.close('the player went away before the answer');
  res.writeHead(201, {
    ...CORS,
    'content-type': 'application/sdp',
    location,
    etag: resource.etag,
    'accept-patch': 'application/trickle-ice-sdpfrag',
    // Flussonic's player keeps this as its session id.
    'x-sid': resource.session.id,
    'cache-control': 'no-cache',
  });
  res.end(result.answer);
}

function resourceRequest(
  service: WhepService,
  name: string,
  id: string,
  req: IncomingMessage,
  res: ServerResponse,
  log: (line: string) => void,
): void {
  const resource = service.resource(id);
  if (!resource || resource.stream !== name) return answer(res, 404, 'no such WHEP session', log, req);
  if (req.method === 'DELETE') {
    resource.viewer.close('ended by the player (DELETE)');
    res.writeHead(200, CORS);
    return void res.end();
  }
  if (req.method !== 'PATCH')
    return answer(res, 405, `${req.method} is not allowed here`, log, req, {
      allow: 'PATCH, DELETE, OPTIONS',
    });
  if (!isType(req, 'application/trickle-ice-sdpfrag'))
    return answer(res, 415, 'a PATCH must be Content-Type: application/trickle-ice-sdpfrag', log, req);
  const ifMatch = req.headers['if-match'];
  if (ifMatch !== undefined && ifMatch !== '*' && ifMatch !== resource.etag)
    return answer(res, 412, 'If-Match names another state of this session', log, req);
  void readBody(req, MAX_PATCH_BYTES).then(async (body) => {
    if ('status' in body) return answer(res, body.status, body.error, log, req);
    const fragment = parseSdpFragment(body.text);
    if ('error' in fragment) return answer(res, 400, fragment.error, log, req);
    // RFC 9725 §4.3.2: an ICE restart (new credentials) is not supported here, trickle is.
    if (fragment.ufrag !== undefined && fragment.ufrag !== resource.viewer.remoteUfrag)
      return answer(res, 422, 'ICE restarts are not supported: start a new session', log, req);
    try {
      for (const c of fragment.candidates) await resource.viewer.addCandidate(c.candidate, c.mid);
    } catch (error) {
      return answer(res, 400, `a candidate was not taken: ${(error as Error).message}`, log, req);
    }
    res.writeHead(204, CORS);
    res.end();
  });
}

/** The stream's tracks, which Flussonic's player reads before it plays; the same play authorization. */
function mediaInfo(
  service: WhepService,
  name: string,
  who: WhepWho,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return answer(res, 405, `${req.method} is not allowed here`);
  whenReady(service.checkPlay(name, who), (refused) => {
    if (refused) return answer(res, 403, refused);
    const body = Buffer.from(JSON.stringify(service.mediaInfo(name)));
    res.writeHead(200, {
      ...CORS,
      'content-type': 'application/json',
      'content-length': body.length,
      'cache-control': 'no-cache',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
}

function isType(req: IncomingMessage, type: string): boolean {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === type;
}

type Body = { text: string } | { status: number; error: string };

/** The request body up to `limit` bytes; larger (by its length or as it comes) is refused with 413. */
function readBody(req: IncomingMessage, limit: number): Promise<Body> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.resolve({ status: 413, error: `the body is over ${limit} bytes` });
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(
      () => done({ status: 408, error: 'the body did not arrive in time' }),
      BODY_TIMEOUT_MS,
    );
    const done = (body: Body) => {
      clearTimeout(timer);
      req.removeAllListeners('data');
      resolve(body);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return done({ status: 413, error: `the body is over ${limit} bytes` });
      parts.push(chunk);
    });
    req.on('end', () => done({ text: Buffer.concat(parts).toString('utf8') }));
    req.on('error', () => done({ status: 400, error: 'the request failed' }));
  });
}

/** An error answer, plain text, with a log line naming the player and the path. */
function answer(
  res: ServerResponse,
  status: number,
  message: string,
  log?: (line: string) => void,
  req?: IncomingMessage,
  headers: Record<string, string> = {},
): void {
  if (log && req)
    log(
      `whep: ${req.method} ${req.url?.split('?')[0]} from ${req.socket.remoteAddress}: ${status} ${message}`,
    );
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    ...CORS,
    ...headers,
    'content-type': 'text/plain; charset=utf-8',
    connection: 'close',
  });
  res.end(`${message}\n`);
  if (req && !req.complete) drainThenClose(req);
}

/** Bytes of a refused body read and thrown away, so the sender gets to read the answer; past this it is cut off. */
const MAX_DRAIN_BYTES = 1024 * 1024;

/**
 * A client still sending a refused body would see the connection reset before it reads the
 * answer (fetch reports "other side closed"): the rest is read and dropped, up to a bound.
 */
function drainThenClose(req: IncomingMessage): void {
  let drained = 0;
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > MAX_DRAIN_BYTES) req.socket.destroy();
  });
  const timer = setTimeout(() => req.socket.destroy(), BODY_TIMEOUT_MS);
  req.once('close', () => clearTimeout(timer));
  req.resume();
}
