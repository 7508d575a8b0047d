import { useServerInfo } from '../../api/server-info.js';

/**
 * The console's players play past play authorization with the server's admin token (spec 001 §6,
 * §7 player: "an admin token"). Only the players' own requests carry it: URLs and embed code shown
 * for copying never do.
 */
export const useAdminToken = (): string | undefined => useServerInfo().data?.admin_token;

export function withAdminToken(url: string, token: string | undefined): string {
  if (!token) return url;
  return `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
}
