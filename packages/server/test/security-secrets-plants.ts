import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { SECRET_FIELDS, type SecretKind } from '../src/http/secret-fields.js';

/**
 * A config with a distinct known secret planted in every field of SECRET_FIELDS (the one table the
 * server redacts from), so a field added to the table is planted and checked without a test edit.
 * Runtime paths (an item's `stats`, a location's or mirror's `streams`) can't be planted through
 * the config: they show the planted source urls once the streams run.
 */
export interface Planted {
  /** The config delta (modify_config body without the reset marker). */
  config: Record<string, unknown>;
  /** Every planted secret string: none may reach a view-only caller. */
  secrets: string[];
}

/** Keys for `*`: sources are keyed by position; the rest by a name. */
// A web script's prefix may not overlap a stream or location (web-scripts/), so not 'planted'.
const KEY_OF: Record<string, string> = { sources: '0', web_scripts: 'plantedscripts' };

const isRuntime = (parts: string[]) =>
  parts.includes('stats') || ((parts[0] === 'lives' || parts[0] === 'sources') && parts[2] === 'streams');

export function plantSecrets(round: string, table = SECRET_FIELDS): Planted {
  const config: Record<string, unknown> = {};
  const secrets: string[] = [];
  const tag = randomBytes(4).toString('hex');
  let n = 0;
  const secret = () => {
    const value = `plant${round}x${n++}x${tag}`;
    secrets.push(value);
    return value;
  };
  for (const [path, kind] of Object.entries(table)) {
    const parts = path.split('.');
    // `urls[]` (a plain string source) is planted through `urls[].url`, the shape the config keeps.
    if (isRuntime(parts) || Object.keys(table).some((other) => other.startsWith(`${path}.`))) continue;
    // An omitted field is a login pair (edit_auth, view_auth) or a plain token (metrics_token).
    const value = kind === 'omit' && !path.endsWith('_auth') ? secret() : valueOf(kind, secret);
    setPath(config, parts, value);
  }
  // A web script is refused without the folder it serves; any folder does (a missing one is a notice).
  const scripts = config.web_scripts as Record<string, Record<string, unknown>> | undefined;
  for (const script of Object.values(scripts ?? {})) script.path ??= tmpdir();
  return { config, secrets };
}

function valueOf(kind: SecretKind, secret: () => string): unknown {
  switch (kind) {
    case 'secret':
      return secret();
    case 'url':
    case 'text':
      // A password in the userinfo and a token in the query: both are secrets.
      return `http://user:${secret()}@127.0.0.1:9/app/s?token=${secret()}`;
    case 'options':
      return { api_key: secret(), note: 'visible' };
    case 'omit':
      return { login: `login${secret()}`, password: secret() };
  }
}

function setPath(target: Record<string, unknown>, parts: string[], value: unknown): void {
  let node: Record<string, unknown> | unknown[] = target;
  let section = '';
  parts.forEach((raw, i) => {
    const list = raw.endsWith('[]');
    const name = list ? raw.slice(0, -2) : raw;
    const key = name === '*' ? (KEY_OF[section] ?? 'planted') : name;
    if (i === 0) section = name;
    const last = i === parts.length - 1;
    const holder = node as Record<string, unknown>;
    if (list) {
      const array = (holder[key] ??= []) as unknown[];
      if (last) array[0] = value;
      else node = (array[0] ??= {}) as Record<string, unknown>;
    } else if (last) holder[key] = value;
    else node = (holder[key] ??= {}) as Record<string, unknown>;
  });
}
