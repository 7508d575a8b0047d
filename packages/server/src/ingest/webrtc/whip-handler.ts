import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { logText } from '../rtmp/log-text.js';
import { readSmallBody } from './http-body.js';
import { MAX_OFFER_BYTES } from './offer-codecs.js';
import type { PublishSetups } from './publish-setups.js';
import { MAX_FRAGMENT_BYTES, offerUfrag, trickleFragment } from './trickle-fragment.js';
import type { WebrtcPublish } from './webrtc-publish.js';

/** /{name}/whip (the endpoint) and /{name}/whip/{session id} (a publish's resource). */
const PATH = /^\/(.+)\/whip(?:\/([0-9a-f-]{36}))?$/;
/** A request body not sent by then is refused: it holds a place under the publish caps. */
export const BODY_TIMEOUT_MS = 10_000;

/**
 * CORS for every answer: publishers run in pages of other origins (Flussonic's Publisher, a
 * studio's site), and the offer's Content-Type makes the browser ask first (OPTIONS). No cookies
 * are involved (the password is in the URL or a Bearer header), so any origin may call.
 */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers': 'content-type, authorization, if-match',
  'access-control-expose-headers': 'location, etag, accept-patch',
  'access-control-max-age': '86400',
};

interface Session {
  streamName: string;
  publish: WebrtcPublish;
  etag: string;
  ufrag: string | undefined;
}

const mediaType = (req: IncomingMessage) =>
  (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * WHIP (RFC 9725): POST /{name}/whip with the SDP offer publishes into the stream (the answer,
 * 201, Location of the publish's resource); PATCH on the resource trickles ICE candidates
 * (application/trickle-ice-sdpfrag; ICE restarts are not supported: 422); DELETE ends the
 * publish. The stream's publish password comes as ?password=, ?token= or Authorization: Bearer.
 * Answered on the plain request path (like playback): returns false for other requests.
 */
export function whipHandler(setups: PublishSetups, log: { notice(message: string): void }) {
  const sessions = new Map<string, Session>();

  const send = (res: ServerResponse, status: number, headers: Record<string, string> = {}, body = '') => {
    res.writeHead(status, { ...CORS, 'cache-control': 'no-store', ...headers });
    res.end(body);
  };
  /** A refusal: the status, the reason as text, and a log line naming the stream and the peer. */
  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    name: string,
    status: number,
    why: string,
    more: Record<string, string> = {},
  ) => {
    log.notice(
      `whip ${req.method} ${logText(name)} from ${req.socket.remoteAddress} refused (${status}): ${logText(why)}`,
    );
    // A body left unread (too large, too slow) is not drained: the connection ends with the answer.
    const close: Record<string, string> = status === 413 || status === 408 ? { connection: 'close' } : {};
    send(res, status, { 'content-type': 'text/plain; charset=utf-8', ...close, ...more }, `${why}\n`);
  };

  const offer = async (
    req: IncomingMessage,
    res: ServerResponse,
    name: string,
    path: string,
    query: URLSearchParams,
  ) => {
    const ip = req.socket.remoteAddress ?? '';
    if (mediaType(req) !== 'application/sdp')
      return refuse(req, res, name, 415, 'the offer must be sent as Content-Type: application/sdp');
    const entered = setups.enter(ip, name);
    // Already logged by the caps.
    if (typeof entered !== 'function')
      return send(res, 503, { 'content-type': 'text/plain; charset=utf-8' }, `${entered.refused}\n`);
    const body = await readSmallBody(req, MAX_OFFER_BYTES, BODY_TIMEOUT_MS);
    if (typeof body !== 'string') {
      entered();
      return refuse(req, res, name, body.status, body.refused);
    }
    // The stream's password, however the client sends it (compat: Flussonic's players).
    const fields = Object.fromEntries(query);
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
    const password = fields.password ?? fields.token ?? bearer;
    if (password !== undefined) fields.password = password;
    let gone = false;
    res.once('close', () => (gone = !res.writableFinished));
    const id = randomUUID();
    const result = await setups.start({
      streamName: name,
      query: fields,
      ip,
      offer: body,
      release: entered,
      gone: () => gone,
      onEnd: () => sessions.delete(id),
    });
    if ('refused' in result)
      return send(res, result.status, { 'content-type': 'text/plain; charset=utf-8' }, `${result.refused}\n`);
    if (gone) return result.publish.close('the publisher went away before the answer');
    const session: Session = {
      streamName: name,
      publish: result.publish,
      etag: `"${id}"`,
      ufrag: offerUfrag(body),
    };
    sessions.set(id, session);
    send(
      res,
      201,
      {
        'content-type': 'application/sdp',
        location: `/${path}/whip/${id}`,
        etag: session.etag,
        'accept-patch': 'application/trickle-ice-sdpfrag',
      },
      result.answer,
    );
  };

  const patch = async (req: IncomingMessage, res: ServerResponse, session: Session) => {
    const name = session.streamName;
    if (mediaType(req) !== 'application/trickle-ice-sdpfrag')
      return refuse(
        req,
        res,
        name,
        415,
        'a PATCH must be sent as Content-Type: application/trickle-ice-sdpfrag',
      );
    const ifMatch = req.headers['if-match'];
    if (ifMatch === '*') return refuse(req, res, name, 422, 'ICE restarts are not supported: publish again');
    if (ifMatch !== undefined && ifMatch !== session.etag)
      return refuse(req, res, name, 412, `If-Match ${ifMatch.slice(0, 64)} is not this session's ETag`);
    const body = await readSmallBody(req, MAX_FRAGMENT_BYTES, BODY_TIMEOUT_MS);
    if (typeof body !== 'string') return refuse(req, res, name, body.status, body.refused);
    const fragment = trickleFragment(body);
    if ('refused' in fragment) return refuse(req, res, name, 400, fragment.refused);
    if (fragment.ufrag !== undefined && session.ufrag !== undefined && fragment.ufrag !== session.ufrag)
      return refuse(req, res, name, 422, 'ICE restarts are not supported: publish again');
    try {
      for (const c of fragment.candidates) await session.publish.addCandidate(c.candidate, c.sdpMid);
    } catch (error) {
      return refuse(req, res, name, 400, `can't take a candidate: ${(error as Error).message}`);
    }
    send(res, 204);
  };

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const match = PATH.exec(q < 0 ? url : url.slice(0, q));
    if (!match) return false;
    let name: string;
    try {
      name = decodeURIComponent(match[1]!);
    } catch {
      return false;
    }
    const id = match[2];
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      send(res, 204, { allow: id ? 'PATCH, DELETE, OPTIONS' : 'POST, OPTIONS' });
      return true;
    }
    const failed = (error: Error) => refuse(req, res, name, 500, error.message);
    if (!id) {
      if (method !== 'POST')
        refuse(req, res, name, 405, `${method} is not allowed on a WHIP endpoint: POST an offer`, {
          allow: 'POST, OPTIONS',
        });
      else
        void offer(req, res, name, match[1]!, new URLSearchParams(q < 0 ? '' : url.slice(q + 1))).catch(
          failed,
        );
      return true;
    }
    const session = sessions.get(id);
    if (method !== 'PATCH' && method !== 'DELETE')
      refuse(req, res, name, 405, `${method} is not allowed on a WHIP session: PATCH or DELETE`, {
        allow: 'PATCH, DELETE, OPTIONS',
      });
    else if (!session || session.streamName !== name) refuse(req, res, name, 404, 'no such WHIP session');
    else if (method === 'DELETE') {
      sessions.delete(id);
      session.publish.close('ended by the publisher (WHIP DELETE)');
      send(res, 200);
    } else void patch(req, res, session).catch(failed);
    return true;
  };
}
