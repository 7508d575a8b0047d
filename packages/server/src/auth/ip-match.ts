import { BlockList, isIP } from 'node:net';
import { plainAddress } from './geoip.js';

/**
 * Whether `ip` is one of `rules`: plain addresses (1.2.3.4, ::1) or CIDR ranges (10.0.0.0/8,
 * 2001:db8::/32). A rule that is neither never matches.
 */
export function ipMatches(ip: string, rules: readonly string[]): boolean {
  const address = plainAddress(ip);
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const list = new BlockList();
  for (const rule of rules) {
    const [base = '', bits] = rule.trim().split('/');
    const ruleFamily = isIP(base);
    if (ruleFamily === 0) continue;
    const ruleType = ruleFamily === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(base, ruleType);
    else {
      const prefix = Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (ruleFamily === 4 ? 32 : 128)) continue;
      list.addSubnet(base, prefix, ruleType);
    }
  }
  return list.check(address, type);
}
