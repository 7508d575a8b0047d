import { isPlainObject, SECURETOKEN_PREFIX } from '@sluice/api';
import { SECRET_FIELDS, SECRET_NAME, type SecretKind } from './secret-fields.js';

/**
 * What a view-only caller reads in place of a secret. A placeholder rather than nothing: the
 * console still shows that a password is set, which auth type an item uses (`securetoken://***`)
 * and where a source points (`rtmp://user:***@host/app`).
 */
export const HIDDEN = '***';

interface Trie {
  kind?: SecretKind;
  named: Map<string, Trie>;
  any?: Trie;
  items?: Trie;
}

const newTrie = (): Trie => ({ named: new Map() });

function compile(table: Readonly<Record<string, SecretKind>>): Trie {
  const root = newTrie();
  for (const [path, kind] of Object.entries(table)) {
    let node = root;
    for (const part of path.split('.')) {
      const items = part.endsWith('[]');
      const key = items ? part.slice(0, -2) : part;
      if (key === '*') node = node.any ??= newTrie();
      else if (key !== '') {
        let next = node.named.get(key);
        if (!next) node.named.set(key, (next = newTrie()));
        node = next;
      }
      if (items) node = node.items ??= newTrie();
    }
    node.kind = kind;
  }
  return root;
}

const TRIE = compile(SECRET_FIELDS);
const OMIT = Symbol('omit');

/**
 * The live view (or a delta of it) as a view-only caller may read it: every field of SECRET_FIELDS
 * hidden. Copy-on-write: what holds no secret is shared with `data`, which is never changed, and
 * the walk follows the table, so a delta costs what it holds.
 */
export function redactSecrets(data: Record<string, unknown>): Record<string, unknown> {
  const out = walk(data, TRIE);
  return out === OMIT ? {} : (out as Record<string, unknown>);
}

function walk(value: unknown, node: Trie): unknown {
  // A deletion carries no secret, but an omitted field is not even said to be gone.
  if (value === null || value === undefined) return node.kind === 'omit' && value === null ? OMIT : value;
  let out = value;
  if (Array.isArray(value) && node.items) {
    const items = node.items;
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = walk(item, items);
      if (next !== item) (copy ??= [...value])[i] = next === OMIT ? null : next;
    });
    out = copy ?? value;
  } else if (isPlainObject(value) && (node.named.size > 0 || node.any)) {
    let copy: Record<string, unknown> | undefined;
    const visit = (key: string, child: Trie) => {
      const current = (copy ?? value)[key];
      if (current === undefined) return;
      const next = walk(current, child);
      if (next === current) return;
      copy ??= { ...value };
      if (next === OMIT) delete copy[key];
      else copy[key] = next;
    };
    for (const [key, child] of node.named) visit(key, child);
    if (node.any) for (const key of Object.keys(value)) visit(key, node.any);
    out = copy ?? value;
  }
  return node.kind ? hide(out, node.kind) : out;
}

function hide(value: unknown, kind: SecretKind): unknown {
  if (kind === 'omit') return OMIT;
  if (Array.isArray(value)) {
    const items = value.map((item) => hide(item, kind));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (kind === 'options') return isPlainObject(value) ? hideOptions(value) : value;
  // A secret is hidden whatever its type (a loose field may hold a number); urls and text are strings.
  if (kind === 'secret') return HIDDEN;
  if (typeof value !== 'string') return value;
  return kind === 'url' ? hideInUrl(value) : hideInText(value);
}

function hideOptions(options: Record<string, unknown>): Record<string, unknown> {
  if (!Object.keys(options).some((key) => SECRET_NAME.test(key))) return options;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(options)) out[key] = SECRET_NAME.test(key) ? HIDDEN : v;
  return out;
}

const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#]*)@/gi;
const QUERY_PAIR = /([?&;])([^=&#\s]*)=([^&#\s]*)/g;

/** A url with its secrets hidden: the userinfo's password (or a lone user, which may be a token),
 * the values of query keys that look secret, and a securetoken key. */
export function hideInUrl(url: string): string {
  if (url.startsWith(SECURETOKEN_PREFIX)) return `${SECURETOKEN_PREFIX}${HIDDEN}`;
  return hideInText(url);
}

/** hideInUrl for every url inside free text, such as an error message quoting a source. */
export function hideInText(text: string): string {
  // Most urls (udp://, test://, publish://) have neither: no regex work for them.
  if (!text.includes('@') && !text.includes('=')) return text;
  return text
    .replace(USERINFO, (_all, scheme: string, userinfo: string) => {
      const colon = userinfo.indexOf(':');
      return `${scheme}${colon < 0 ? HIDDEN : `${userinfo.slice(0, colon)}:${HIDDEN}`}@`;
    })
    .replace(QUERY_PAIR, (all, sep: string, key: string) =>
      SECRET_NAME.test(key) ? `${sep}${key}=${HIDDEN}` : all,
    );
}
