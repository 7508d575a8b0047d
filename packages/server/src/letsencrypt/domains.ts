import { isIP } from 'node:net';

/** LetsEncrypt's limit of names on one certificate. */
export const MAX_DOMAINS = 100;

/** A bad `domains` list in a POST /letsencrypt body: answered 400 with this message. */
export class BadDomains extends Error {}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The names to order, lower-cased and without repeats, or BadDomains naming the first bad one.
 * IP addresses are refused (HTTP-01 validates names; spec 000 §5 refuses them in the console
 * too), and so are wildcards, which only a DNS-01 challenge can prove.
 */
export function checkDomains(input: unknown): string[] {
  if (!Array.isArray(input) || input.length === 0)
    throw new BadDomains('domains must be a list of one or more domain names');
  if (input.length > MAX_DOMAINS) throw new BadDomains(`at most ${MAX_DOMAINS} domains on one certificate`);
  const names: string[] = [];
  for (const entry of input) {
    if (typeof entry !== 'string') throw new BadDomains('domains must be strings');
    const name = entry.trim().toLowerCase().replace(/\.$/, '');
    const shown = JSON.stringify(entry.slice(0, 80));
    if (isIP(name) || /^\[.*\]$/.test(name))
      throw new BadDomains(`can't issue a certificate for IP address ${shown}: use a domain name`);
    if (name.startsWith('*.'))
      throw new BadDomains(`${shown}: wildcard names need a DNS-01 challenge, which is not offered`);
    if (name.length > 253 || !name.split('.').every((label) => LABEL.test(label)))
      throw new BadDomains(`${shown} is not a domain name`);
    if (!names.includes(name)) names.push(name);
  }
  return names;
}
