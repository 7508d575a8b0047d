import { randomBytes } from 'node:crypto';
import type {
  ClientSession,
  ClientSessions,
  RequestIdentity,
  SessionRefusal,
} from '../delivery/client-sessions.js';
import type { Decision, PlayAuth } from './play-auth.js';
import type { PlayRequest } from './play-request.js';
import { overUserLimit } from '../iptv/user-sessions.js';

export type MaybePromise<T> = T | Promise<T>;
export type SessionOrRefusal = ClientSession | SessionRefusal;

/** Calls `then` with the value, at once when it is not a promise (the common, cached case). */
export function whenReady<T>(value: MaybePromise<T>, then: (value: T) => void): void {
  if (value instanceof Promise) void value.then(then);
  else then(value);
}

/** Sessions let in by the admin token or a cluster proof: not checked again. */
const privileged = new WeakSet<ClientSession>();
/** The Referer each session came with, for checking it again (allowed domains). */
const referers = new WeakMap<ClientSession, string>();

export const isPrivileged = (session: ClientSession): boolean => privileged.has(session);
export const refererOf = (session: ClientSession): string | undefined => referers.get(session);

/**
 * Play authorization, then the session: what every playback path (delivery/playback.ts, the DASH
 * and RTMP players) calls before it sends a byte. A denied request gets `{refused}` and no session;
 * max_sessions is counted as the session opens (the admin token is exempt). `whenAllowed` runs once
 * the request is allowed and before the session opens; a refusal from it opens no session (an RTMP
 * player wakes an on-demand stream there, so a denied one wakes nothing).
 */
export function authorizedSession(
  auth: PlayAuth,
  sessions: ClientSessions,
  who: RequestIdentity & { referer: string | undefined; cluster?: PlayRequest['cluster'] },
  maxSessions: number | undefined,
  whenAllowed?: () => { refused: string } | undefined,
): MaybePromise<SessionOrRefusal> {
  const identity: RequestIdentity = {
    stream: who.stream,
    type: who.type,
    ip: who.ip,
    userAgent: who.userAgent,
    token: who.token,
  };
  const sessionId = sessions.existingId(identity) ?? randomBytes(8).toString('hex');
  const decision = auth.check({
    name: who.stream,
    ip: who.ip,
    token: who.token,
    userAgent: who.userAgent,
    referer: who.referer,
    proto: who.type,
    requestType: 'play',
    sessionId,
    cluster: who.cluster,
  });
  const open = (d: Decision): SessionOrRefusal => {
    if (!d.allow) return { refused: `access denied: ${d.reason}` };
    const notNow = whenAllowed?.();
    if (notNow) return notNow;
    const limit = d.admin ? undefined : (maxSessions ?? auth.maxSessions(who.stream));
    // The viewer's own limit across streams (an IPTV user's max_sessions), as a session opens.
    if (d.perUser && sessions.existingId(identity) === undefined) {
      const over = overUserLimit(sessions, d.perUser, identity, Date.now());
      if (over) return over;
    }
    const session = sessions.open(identity, Date.now(), limit, {
      id: sessionId,
      userId: d.userId,
      // The admin token and a mirror's cluster proof are not held to max_sessions_per_ip.
      exempt: d.admin === true,
    });
    if ('refused' in session) return session;
    if (d.admin) privileged.add(session);
    if (who.referer && !referers.has(session)) referers.set(session, who.referer);
    return session;
  };
  return decision instanceof Promise ? decision.then(open) : open(decision);
}

/**
 * Publish authorization: the auth settings of the stream (or location) published into, with
 * request_type publish (no Referer rule: publishers have none). `accept` runs only when allowed.
 */
export function authorizedPublish<T extends object>(
  auth: PlayAuth,
  request: { app: string; name: string; query: Record<string, string>; remoteAddress: string; via?: string },
  accept: () => T | { refused: string },
): MaybePromise<T | { refused: string }> {
  const decision = auth.check({
    name: request.app === 'static' ? request.name : `${request.app}/${request.name}`,
    ip: request.remoteAddress,
    token: request.query.token,
    userAgent: '',
    referer: undefined,
    proto: request.via ?? 'rtmp',
    requestType: 'publish',
    sessionId: randomBytes(8).toString('hex'),
  });
  const decide = (d: Decision): T | { refused: string } =>
    d.allow ? accept() : { refused: `access denied: ${d.reason}` };
  return decision instanceof Promise ? decision.then(decide) : decide(decision);
}
