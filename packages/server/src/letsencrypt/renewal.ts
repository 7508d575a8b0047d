/**
 * When a LetsEncrypt certificate is renewed: 30 days before it expires (LetsEncrypt's own advice
 * for its 90-day certificates), checked once a day; a failed try is retried sooner, backing off
 * from an hour to the daily check, so a CA outage of a day or two still leaves weeks of margin.
 */
export const RENEW_BEFORE_MS = 30 * 86_400_000;
export const CHECK_EVERY_MS = 86_400_000;
export const FIRST_RETRY_MS = 3_600_000;

export function renewalDue(notAfterIso: string, nowMs: number): boolean {
  return Date.parse(notAfterIso) - nowMs <= RENEW_BEFORE_MS;
}

/** The wait before the next check after `failures` failed tries in a row (0: the daily check). */
export function nextCheckInMs(failures: number): number {
  if (failures <= 0) return CHECK_EVERY_MS;
  return Math.min(FIRST_RETRY_MS * 2 ** (failures - 1), CHECK_EVERY_MS);
}
