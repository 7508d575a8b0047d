import type { ClientSessions, RequestIdentity, SessionRefusal } from '../delivery/client-sessions.js';
import type { PerUserLimit } from '../auth/play-auth.js';

/**
 * A viewer's own max_sessions (an IPTV user's), across all streams, checked as a new session
 * would open (docs/api.md "IPTV"): over the limit the new session is refused, except when one of
 * the user's sessions comes from the same device (address and User-Agent) — a set-top box changing
 * channels — when the oldest such session is closed (not refused for good) and the new one let in.
 */
export function overUserLimit(
  sessions: ClientSessions,
  limit: PerUserLimit,
  who: RequestIdentity,
  nowMs: number,
): SessionRefusal | undefined {
  const max = limit.maxSessions;
  if (max === null || max <= 0) return undefined;
  const own = sessions.all().filter((s) => s.userId === limit.userId);
  if (own.length < max) return undefined;
  const sameDevice = own
    .filter((s) => s.ip === who.ip && s.userAgent === who.userAgent)
    .sort((a, b) => a.createdAt - b.createdAt);
  const replaced = sameDevice.slice(0, own.length - max + 1);
  if (replaced.length === own.length - max + 1) {
    sessions.close(
      replaced.map((s) => s.id),
      nowMs,
      false,
    );
    return undefined;
  }
  return { refused: `IPTV user ${limit.userId} has its ${max} sessions already (max_sessions)` };
}
