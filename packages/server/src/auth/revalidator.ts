import type { ClientSession, ClientSessions } from '../delivery/client-sessions.js';
import type { Logger } from '../support/log.js';
import { isPrivileged, refererOf } from './play-gate.js';
import type { PlayAuth } from './play-auth.js';
import type { Verdict } from './play-request.js';

/** How often open sessions are checked again. */
export const REVALIDATE_EVERY_MS = 10_000;

/**
 * Checks every open session against play authorization again, so a restriction added while a
 * player is on (an edit of the auth, a backend that now says 403 once its answer's time is up)
 * ends it: the session is closed, which cuts an MPEG-TS or RTMP connection; an HLS/DASH player's
 * next request is a new session, checked as any. Sessions of the admin token or of a mirror are
 * left alone, and so are those whose backend gave no answer this time (asked again next pass).
 * max_sessions is not checked again: players already on stay.
 */
export class Revalidator {
  private readonly timer: NodeJS.Timeout;
  private running = false;
  /** A pass asked for while one runs: made once that one ends. */
  private again = false;

  constructor(
    private readonly auth: PlayAuth,
    private readonly clients: ClientSessions,
    private readonly log: Logger,
    everyMs = REVALIDATE_EVERY_MS,
  ) {
    this.timer = setInterval(() => void this.pass(), everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async pass(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.again = false;
    try {
      const waits: Promise<void>[] = [];
      for (const session of this.clients.all()) {
        if (isPrivileged(session)) continue;
        const verdict = this.auth.check({
          name: session.stream,
          ip: session.ip,
          token: session.token,
          userAgent: session.userAgent,
          referer: refererOf(session),
          proto: session.type,
          requestType: 'play',
          sessionId: session.id,
        });
        if (verdict instanceof Promise) waits.push(verdict.then((v) => this.apply(session, v)));
        else this.apply(session, verdict);
      }
      await Promise.all(waits);
    } finally {
      this.running = false;
    }
    if (this.again) await this.pass();
  }

  private apply(session: ClientSession, verdict: Verdict): void {
    if (verdict.allow || verdict.failed || this.clients.isClosed(session)) return;
    // Not refused for good: allowed again later, the player's next request starts a new session.
    this.clients.close([session.id], Date.now(), false);
    this.log.notice(
      `session ${session.id} of ${session.stream} (${session.type}, ${session.ip}) ended: ${verdict.reason}`,
    );
  }
}
