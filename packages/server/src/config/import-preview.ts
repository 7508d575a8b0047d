import {
  applyDelta,
  type Config,
  config as configSchema,
  deepEqual,
  formatIssues,
  type ImportSummary,
  isPlainObject,
  type ItemChanges,
  orderedSections,
} from '@sluice/api';
import { refuseDvrRootClash } from './dvr-roots.js';
import { ConfigRejected } from './errors.js';
import { refuseLockout } from './lockout.js';
import { normalizeConfig, touchedPositions } from './normalize.js';
import { createMirrors, RESET_MARKER, stripStats } from './store.js';

/**
 * The config an Upload config body (a downloaded config, with or without the reset marker) would
 * become, checked as modify_config checks an import, without saving anything: what the
 * confirmation's summary compares with the running config. It follows ConfigStore.modify's reset
 * path step for step (same helpers), so the summary names what the import then really does.
 */
export function importedConfig(body: unknown): Config {
  if (!isPlainObject(body)) throw new ConfigRejected('the file must hold a JSON object: a config');
  const { [RESET_MARKER]: _reset, ...rest } = body;
  const cleaned = stripStats(rest) as Record<string, unknown>;
  const withMirrors = createMirrors({}, cleaned);
  const candidate = normalizeConfig(
    applyDelta({}, withMirrors),
    touchedPositions(withMirrors),
    {},
    withMirrors,
  );
  const result = configSchema.safeParse(candidate);
  if (!result.success) throw new ConfigRejected(formatIssues(result.error));
  const valid = result.data;
  if (!valid.edit_auth)
    throw new ConfigRejected('an imported config must keep edit_auth, or nobody could log in again');
  refuseLockout(valid);
  refuseDvrRootClash(valid);
  return valid;
}

const sectionKeys = new Set<string>([...orderedSections, 'plugins']);

/** The name an item is shown by: its key, or for a mirror (keyed by position) its first URL. */
function nameOf(section: string, key: string, item: unknown): string {
  if (section !== 'sources' || !isPlainObject(item) || !Array.isArray(item.urls)) return key;
  const first: unknown = item.urls[0];
  const url = isPlainObject(first) ? first.url : first;
  return typeof url === 'string' ? url : key;
}

/**
 * An item's place in its list is not a change of it: removing one stream shifts the positions of
 * every stream after it, and the text (which holds no position) keeps their lines as they are.
 */
function withoutPosition(item: unknown): unknown {
  if (!isPlainObject(item) || !('position' in item)) return item;
  const { position: _position, ...rest } = item;
  return rest;
}

function compare(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  name: (key: string, item: unknown) => string = (key) => key,
): ItemChanges {
  const out: ItemChanges = { added: [], removed: [], changed: [] };
  for (const [key, item] of Object.entries(after)) {
    if (!(key in before)) out.added.push(name(key, item));
    else if (!deepEqual(withoutPosition(before[key]), withoutPosition(item)))
      out.changed.push(name(key, item));
  }
  for (const [key, item] of Object.entries(before)) if (!(key in after)) out.removed.push(name(key, item));
  return out;
}

/** What replacing `previous` with `next` adds, removes and changes: sections by item, settings by key. */
export function summarizeImport(previous: Config, next: Config): ImportSummary {
  const p = previous as Record<string, unknown>;
  const n = next as Record<string, unknown>;
  const settingsOf = (c: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(c).filter(([k, v]) => !sectionKeys.has(k) && v !== undefined));
  const sections: Record<string, ItemChanges> = {};
  for (const key of sectionKeys) {
    const before = isPlainObject(p[key]) ? p[key] : {};
    const after = isPlainObject(n[key]) ? n[key] : {};
    const changes = compare(before, after, (k, item) => nameOf(key, k, item));
    if (changes.added.length + changes.removed.length + changes.changed.length > 0) sections[key] = changes;
  }
  return { sections, settings: compare(settingsOf(p), settingsOf(n)) };
}
