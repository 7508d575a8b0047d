/** A certificate ending sooner than this is a header notice (LetsEncrypt renews at 30 days). */
export const CERTIFICATE_WARN_DAYS = 14;
const DAY_MS = 24 * 3600 * 1000;

/**
 * error_certificate_expiry while the certificate every TLS port serves ends within 14 days (or has
 * ended): read from the certificate in use each stats second, so a replaced one clears it at once.
 */
export function certificateExpiryNotice(
  info: { not_after: string; domains: string[] },
  nowMs = Date.now(),
): Record<string, string> {
  const endMs = Date.parse(info.not_after);
  if (!Number.isFinite(endMs) || endMs - nowMs > CERTIFICATE_WARN_DAYS * DAY_MS) return {};
  const names = info.domains.join(', ') || 'the server';
  const days = Math.ceil((endMs - nowMs) / DAY_MS);
  const when = days <= 0 ? 'has expired' : `expires in ${days} day${days === 1 ? '' : 's'}`;
  return {
    error_certificate_expiry: `The TLS certificate for ${names} ${when} (${info.not_after}): renew or replace it`,
  };
}
