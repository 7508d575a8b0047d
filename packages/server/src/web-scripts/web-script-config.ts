import type { Config } from '@sluice/api';
import { ConfigRejected } from '../config/errors.js';

/**
 * First path parts the server answers itself (console, API, IPTV, metrics, LetsEncrypt): a web
 * script there would be hidden or would hide them.
 */
export const RESERVED_PREFIXES = ['admin', 'flussonic', 'tv', 'metrics', 'letsencrypt', '.well-known'];

/** `/app/` and `app` are one prefix: no slash at either end. */
export const normalPrefix = (prefix: string): string => prefix.replace(/^\/+|\/+$/g, '');

const under = (name: string, prefix: string) => name === prefix || name.startsWith(`${prefix}/`);

/**
 * Why a web script's prefix can't be served, or undefined: malformed, reserved, or the URL space
 * of a stream, a location (live prefix) or a VOD (their playback URLs start with it). Refused when
 * the config is saved; a file loaded by hand serves the rest and shows this as a notice.
 */
export function webScriptProblem(config: Config, key: string): string | undefined {
  const script = config.web_scripts?.[key];
  const prefix = normalPrefix(script?.prefix ?? key);
  const label = `web script ${JSON.stringify(key)}`;
  if (
    !/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(prefix) ||
    prefix.split('/').some((p) => /^\.+$/.test(p))
  )
    return `${label}: the prefix must be URL path parts of letters, digits and . _ ~ -`;
  if (!script?.path) return `${label}: a path (the folder to serve) is required`;
  const first = prefix.split('/')[0]!;
  if (RESERVED_PREFIXES.includes(first))
    return `${label}: /${first} is the server's own (console, API, IPTV, metrics, LetsEncrypt); choose another prefix`;
  for (const name of Object.keys(config.streams ?? {}))
    if (under(name, prefix) || under(prefix, name))
      return `${label}: /${prefix} would shadow (or be shadowed by) stream ${JSON.stringify(name)}; choose another prefix`;
  for (const [section, what] of [
    ['lives', 'location'],
    ['vods', 'VOD'],
  ] as const) {
    for (const [k, item] of Object.entries(config[section] ?? {})) {
      const other = normalPrefix((item as { prefix?: string }).prefix ?? k);
      if (under(other, prefix) || under(prefix, other))
        return `${label}: /${prefix} would shadow (or be shadowed by) ${what} ${JSON.stringify(other)}; choose another prefix`;
    }
  }
  return undefined;
}

/** The first problem of any web script, for a save to refuse (config/store.ts). */
export function webScriptsProblem(config: Config): string | undefined {
  for (const key of Object.keys(config.web_scripts ?? {})) {
    const problem = webScriptProblem(config, key);
    if (problem) return problem;
  }
  return undefined;
}

/** Throws ConfigRejected for the first web script that can't be served (config/store.ts). */
export function refuseWebScriptClash(config: Config): void {
  const problem = webScriptsProblem(config);
  if (problem) throw new ConfigRejected(`${problem}. Nothing was changed.`);
}
