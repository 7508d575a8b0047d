import type { Delta, Path } from './edits.js';
import type { LiveStore } from './live-store.js';
import { getIn } from './live-tree.js';

const SEPARATOR = '\u0000';
const keyOf = (path: Path) => path.join(SEPARATOR);

/**
 * Which tab of an item page made each unsaved edit, by the item's field (`streams/x/urls` → the
 * Input tab's address). A tab's Save sends only the fields its own tab changed, and the tab links
 * show which tabs hold edits (issue 17: a Save on one tab silently saved edits left on others).
 * Fields edited where no tab was watching have no owner: any tab of the item saves those.
 */
export class EditOwners {
  private readonly owners = new Map<string, { path: Path; owner: string }>();
  private readonly listeners = new Set<() => void>();
  private version = 0;

  getVersion = (): number => this.version;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The fields of the item at `itemPath` whose edit changed between `before` and `after` now belong to `owner`. */
  attribute(itemPath: Path, before: unknown, after: unknown, owner: string): void {
    if (!isDelta(after)) return;
    let changed = false;
    for (const [field, value] of Object.entries(after)) {
      if (isDelta(before) && before[field] === value) continue;
      const path = [...itemPath, field];
      if (this.owners.get(keyOf(path))?.owner === owner) continue;
      this.owners.set(keyOf(path), { path, owner });
      changed = true;
    }
    if (!changed) return;
    this.version++;
    for (const listener of this.listeners) listener();
  }

  /** The part of the item's edits that `owner` saves: its own fields and those nobody owns. */
  editsOf(itemPath: Path, itemEdits: unknown, owner: string): Delta {
    if (!isDelta(itemEdits)) return {};
    const out: Delta = {};
    for (const [field, value] of Object.entries(itemEdits)) {
      const held = this.owners.get(keyOf([...itemPath, field]))?.owner;
      if (held === undefined || held === owner) out[field] = value;
    }
    return out;
  }

  /** The owners that still hold an unsaved edit in `edits`. */
  ownersWithEdits(edits: Delta): Set<string> {
    const out = new Set<string>();
    for (const { path, owner } of this.owners.values()) if (getIn(edits, path) !== undefined) out.add(owner);
    return out;
  }
}

const isDelta = (value: unknown): value is Delta =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const byStore = new WeakMap<LiveStore, EditOwners>();

/** The owners of one console's edits: kept beside its store, for as long as the store lives. */
export function editOwnersOf(store: LiveStore): EditOwners {
  let owners = byStore.get(store);
  if (!owners) {
    owners = new EditOwners();
    byStore.set(store, owners);
  }
  return owners;
}
