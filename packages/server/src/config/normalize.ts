import {
  type Config,
  isPlainObject,
  orderedSections,
  sectionKeyField,
  type OrderedSection,
} from '@sluice/api';

type Items = Record<string, Record<string, unknown>>;

/**
 * Brings a config whose delta has just been applied back into shape:
 * - every keyed item carries its key (streams[x].name = x, lives[p].prefix = p, …);
 * - positions are 0..n-1 in list order. Items whose position the delta set are placed at that
 *   index and the others shift around them (spec 000 §2 drag reorder); the rest keep their order;
 * - sources are keyed by position, so they are re-keyed after a move or a delete.
 * `touched` holds, per section, the keys whose position the delta set.
 */
export function normalizeConfig(
  config: Config,
  touched: Partial<Record<OrderedSection, Set<string>>>,
  previous?: Config,
  delta?: Record<string, unknown>,
): Config {
  return normalizeTracked(config, touched, previous, delta).config;
}

/**
 * normalizeConfig, also telling which sections took the fast path of an edit that adds, removes and
 * moves nothing, with the keys the delta changed there: the only items that can differ.
 */
export function normalizeTracked(
  config: Config,
  touched: Partial<Record<OrderedSection, Set<string>>>,
  previous?: Config,
  delta?: Record<string, unknown>,
): { config: Config; edited: Map<string, string[]> } {
  const out: Record<string, unknown> = { ...config };
  const edited = new Map<string, string[]>();
  for (const section of orderedSections) {
    const items = out[section];
    if (!isPlainObject(items)) continue;
    const before = previous?.[section];
    if (before === items) continue;
    const field = sectionKeyField[section];
    const keys =
      isPlainObject(before) && !touched[section] ? editedKeys(before, delta?.[section]) : undefined;
    if (keys) {
      keepOrder(items as Items, before as Items, keys, section === 'sources' ? undefined : field);
      edited.set(section, keys);
      continue;
    }
    const ordered = orderItems(items as Items, touched[section] ?? new Set());
    const next: Items = {};
    ordered.forEach(([key, item], index) => {
      if (section === 'sources') next[String(index)] = withFields(item, { position: index });
      else next[key] = withFields(item, { [field]: key, position: index });
    });
    out[section] = next;
  }
  return { config: out as Config, edited };
}

/**
 * The keys a section delta edits, when it only changes existing items (adds, removes and moves
 * none); undefined when the section needs renumbering or the delta is unknown.
 */
function editedKeys(before: Record<string, unknown>, sectionDelta: unknown): string[] | undefined {
  if (!isPlainObject(sectionDelta)) return undefined;
  const keys = Object.keys(sectionDelta);
  for (const key of keys) {
    const value = sectionDelta[key];
    if (value === null || value === undefined || !(key in before)) return undefined;
  }
  return keys;
}

/**
 * The common edit: fields of existing items changed, none added, removed or moved. Positions stand,
 * so only the edited items need their key field and position, set in place — `items` is the
 * section object applyDelta made for this edit, shared with nothing — at a cost that follows the
 * size of the change instead of re-building a 20,000-item section.
 */
function keepOrder(items: Items, before: Items, keys: readonly string[], field: string | undefined): void {
  for (const key of keys) {
    const item = items[key];
    const old = before[key];
    if (!item || item === old) continue;
    const fields: Record<string, unknown> = { position: old?.position };
    if (field) fields[field] = key;
    items[key] = withFields(item, fields);
  }
}

function withFields(item: Record<string, unknown>, fields: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(fields)) if (item[k] !== v) return { ...item, ...fields };
  return item;
}

function orderItems(items: Items, touched: Set<string>): [string, Record<string, unknown>][] {
  const entries = Object.entries(items);
  const position = (item: Record<string, unknown>, fallback: number) =>
    typeof item.position === 'number' && Number.isFinite(item.position) ? item.position : fallback;
  const rest = entries
    .filter(([key]) => !touched.has(key))
    .map((e, i) => ({ e, p: position(e[1], Number.MAX_SAFE_INTEGER - entries.length + i), i }))
    .sort((a, b) => a.p - b.p || a.i - b.i)
    .map((x) => x.e);
  const moved = entries
    .filter(([key]) => touched.has(key))
    .sort((a, b) => position(a[1], Infinity) - position(b[1], Infinity));
  for (const entry of moved) {
    const at = Math.min(Math.max(0, Math.floor(position(entry[1], rest.length))), rest.length);
    rest.splice(at, 0, entry);
  }
  return rest;
}

/** The keys of each ordered section whose `position` a delta sets. */
export function touchedPositions(
  delta: Record<string, unknown>,
): Partial<Record<OrderedSection, Set<string>>> {
  const out: Partial<Record<OrderedSection, Set<string>>> = {};
  for (const section of orderedSections) {
    const items = delta[section];
    if (!isPlainObject(items)) continue;
    for (const [key, item] of Object.entries(items)) {
      if (isPlainObject(item) && 'position' in item && item.position !== null)
        (out[section] ??= new Set()).add(key);
    }
  }
  return out;
}
