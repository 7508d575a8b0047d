import { createHash, timingSafeEqual } from 'node:crypto';
import { plainAddress } from './geoip.js';

/**
 * Flussonic's secure token (auth url `securetoken://SECRET`): the player's ?token= is
 * `HASH-START-END`, START and END Unix seconds, HASH the hex SHA-1 of
 * name + ip + START + END + SECRET. Valid from START to END, for that stream and that address only.
 */
export function checkSecureToken(
  secret: string,
  name: string,
  ip: string,
  token: string | undefined,
  nowMs: number,
): string | undefined {
  if (!token) return 'securetoken: no token';
  const match = /^([0-9a-f]{40})-(\d{1,12})-(\d{1,12})$/i.exec(token);
  if (!match) return 'securetoken: the token is not HASH-START-END';
  const [, hash, start, end] = match as unknown as [string, string, string, string];
  const now = nowMs / 1000;
  if (now < Number(start) || now > Number(end)) return 'securetoken: the token is out of its time range';
  const expected = secureTokenHash(secret, name, plainAddress(ip), start, end);
  const given = Buffer.from(hash.toLowerCase());
  if (!timingSafeEqual(given, Buffer.from(expected))) return 'securetoken: the token does not match';
  return undefined;
}

export function secureTokenHash(
  secret: string,
  name: string,
  ip: string,
  start: string,
  end: string,
): string {
  return createHash('sha1').update(`${name}${ip}${start}${end}${secret}`).digest('hex');
}
