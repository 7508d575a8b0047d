import { applyDelta, type Config, isPlainObject } from '@sluice/api';

interface Edit {
  name: string;
  section: Record<string, unknown>;
  key: string;
  old: unknown;
}

/**
 * Edits of existing items of keyed sections, written into the live section objects instead of into
 * copies: copying a section object for an edit of a few items is what the edit cost at 20,000
 * streams (enumerating the keys of a 20,000-key object takes ~7 ms on its own, bench/config.mjs). Only for the common edit: fields of items that exist changed, no item added, removed or
 * moved (so order and positions stand). The store applies them, checks and prints the result, and
 * puts the old items back before it awaits the write (nothing else sees the section meanwhile,
 * the steps are synchronous), then applies the checked items again once the file is on disk.
 */
export class InPlaceEdits {
  private readonly edits: Edit[] = [];
  private finals: unknown[] = [];
  /** The delta less the section edits taken here (applyDelta handles the rest). */
  readonly rest: Record<string, unknown>;
  /** Each section taken here: its old items by key (what `previous` shows listeners). */
  readonly olds = new Map<string, Record<string, unknown>>();

  constructor(base: Config, delta: Record<string, unknown>, sections: ReadonlySet<string>) {
    const rest: Record<string, unknown> = { ...delta };
    const b = base as Record<string, unknown>;
    for (const [name, sectionDelta] of Object.entries(delta)) {
      const section = b[name];
      if (!sections.has(name) || !isPlainObject(section) || !isPlainObject(sectionDelta)) continue;
      if (!fieldEditsOnly(section, sectionDelta)) continue;
      const olds: Record<string, unknown> = {};
      for (const key of Object.keys(sectionDelta)) {
        olds[key] = section[key];
        this.edits.push({ name, section, key, old: section[key] });
      }
      this.olds.set(name, olds);
      delete rest[name];
    }
    this.rest = rest;
  }

  /** Writes each edited item (the old one with its item delta applied) into its section. */
  apply(delta: Record<string, unknown>): void {
    for (const { name, section, key, old } of this.edits)
      section[key] = applyDelta(old, (delta[name] as Record<string, unknown>)[key]);
  }

  /** Takes the items as checked and normalised, then puts the old ones back. */
  undo(): void {
    this.finals = this.edits.map(({ section, key }) => section[key]);
    for (const { section, key, old } of this.edits) section[key] = old;
  }

  /** Puts the checked items back in (the file holding them is on disk). */
  redo(): void {
    this.edits.forEach(({ section, key }, i) => (section[key] = this.finals[i]));
  }

  /** `previous` for listeners: the sections taken here hold only their old items (all the scope names). */
  previousOf(base: Config): Config {
    if (this.olds.size === 0) return base;
    return { ...base, ...Object.fromEntries(this.olds) } as Config;
  }
}

/** Fields of existing items only: each item delta a plain object, its item there, no position set. */
function fieldEditsOnly(section: Record<string, unknown>, sectionDelta: Record<string, unknown>): boolean {
  const keys = Object.keys(sectionDelta);
  if (keys.length === 0) return false;
  for (const key of keys) {
    const item = sectionDelta[key];
    if (!isPlainObject(item) || 'position' in item || !isPlainObject(section[key])) return false;
  }
  return true;
}
