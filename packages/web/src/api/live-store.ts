import { applyDelta } from '@sluice/api';
import {
  deltaTouches,
  type EditBase,
  itemDiffers,
  itemKeyOf,
  itemPathOf,
  keepEdited,
  pathOfKey,
} from './edit-bases.js';
import { type Delta, mergeDeltas, type Path, pruneEdits, setEdit, subtractDelta } from './edits.js';
import { type ConnectionState, initialLiveState, type LiveState, type LiveView } from './live-state.js';
import { applyServerDelta, getIn, OverlayMemo, overlayAt } from './live-tree.js';

const isEmpty = (delta: Delta) => Object.keys(delta).length === 0;

/**
 * The console's one copy of the server config, kept current by the events socket, with the local
 * edits laid over it. Every update costs in proportion to the delta and the edits, never to the
 * number of items: see live-tree.ts.
 */
export class LiveStore {
  private state: LiveState = initialLiveState;
  private readonly listeners = new Set<() => void>();
  private readonly memo = new OverlayMemo();
  /** Revisions this console's own saves produced: their echo is no change made elsewhere. */
  private readonly ownRevisions: string[] = [];
  private baseOrder = 0;

  getState = (): LiveState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The value at `path` as forms show it: server, then saved-but-unconfirmed, then unsaved edits. */
  viewAt(state: LiveState, path: Path): unknown {
    return this.memo.read(state.server, [state.pending, state.edits], path);
  }

  /** A whole config (read_config): replaces the server view; anything saved is in it now. */
  replaceServer(data: LiveView): void {
    const before = this.state.server;
    const elsewhere = this.changedElsewhere(data.config_revision, (path) =>
      itemDiffers(getIn(before, path), getIn(data, path)),
    );
    this.memo.clear();
    this.update({ server: data, pending: {}, loaded: true, elsewhere });
  }

  /** A current_config_delta: only what changed since the last answer, nulls deleting. */
  applyServerDelta(delta: Delta | null): void {
    if (!delta || isEmpty(delta)) return;
    const revision = typeof delta.config_revision === 'string' ? delta.config_revision : undefined;
    const elsewhere = this.changedElsewhere(revision, (path) => deltaTouches(delta, path));
    this.update({ server: applyServerDelta(this.state.server, delta) as LiveView, elsewhere });
  }

  /** The flags after a server change to `revision`: edited items it `touches` were changed elsewhere. */
  private changedElsewhere(revision: string | undefined, touches: (path: Path) => boolean) {
    const { elsewhere, bases, server } = this.state;
    if (!revision || revision === server.config_revision || this.ownRevisions.includes(revision))
      return elsewhere;
    let out = elsewhere;
    for (const key of Object.keys(bases))
      if (!out[key] && touches(pathOfKey(key))) out = { ...out, [key]: true as const };
    return out;
  }

  /**
   * The revision a save of the edits under `paths` sends as If-Match: the oldest base among the
   * items there, or the revision now shown when none has edits.
   */
  baseFor(paths: readonly Path[]): string | undefined {
    let oldest: EditBase | undefined;
    for (const [key, base] of Object.entries(this.state.bases)) {
      const item = pathOfKey(key);
      const under = paths.some((p) => p.every((k, i) => item[i] === undefined || item[i] === k));
      if (under && (!oldest || base.order < oldest.order)) oldest = base;
    }
    return oldest ? oldest.revision : this.state.server.config_revision;
  }

  /** A save of the item at `path` was refused as stale (409): it was changed elsewhere. */
  flagElsewhere(path: Path): void {
    const key = itemKeyOf(path);
    if (this.state.bases[key] && !this.state.elsewhere[key])
      this.update({ elsewhere: { ...this.state.elsewhere, [key]: true } });
  }

  /** "Keep my edits": they now count as made on the current config; a save overwrites theirs. */
  rebase(path: Path): void {
    const key = itemKeyOf(path);
    const { [key]: _flag, ...elsewhere } = this.state.elsewhere;
    const base = { revision: this.state.server.config_revision, order: ++this.baseOrder };
    this.update({ elsewhere, bases: { ...this.state.bases, [key]: base } });
  }

  /** "Reload": drops the unsaved edits of the item at `path`, showing the server's version. */
  discardItem(path: Path): void {
    const [section, item] = itemPathOf(path);
    if (section === undefined) return;
    const edits = { ...this.state.edits };
    const inner = edits[section];
    if (item === undefined || typeof inner !== 'object' || inner === null) delete edits[section];
    else {
      const { [item]: _dropped, ...rest } = inner as Delta;
      if (isEmpty(rest)) delete edits[section];
      else edits[section] = rest;
    }
    this.update({ edits });
  }

  setConnection(connection: ConnectionState): void {
    if (this.state.connection !== connection) this.commit({ ...this.state, connection });
  }

  /** Sets the field at `path` to `value` in the edits (null or undefined deletes it). */
  edit(path: Path, value: unknown): void {
    const edits = setEdit(this.state.edits, this.savedAt(path), path, value);
    if (edits === this.state.edits) return;
    // The first edit of an item remembers the revision it was made at (its save's If-Match): on
    // top of a save of this console not yet confirmed, the revision that save answered.
    const key = itemKeyOf(path);
    const onOwnSave = getIn(this.state.pending, itemPathOf(path)) !== undefined;
    const revision = (onOwnSave && this.ownRevisions.at(-1)) || this.state.server.config_revision;
    const bases = this.state.bases[key]
      ? this.state.bases
      : { ...this.state.bases, [key]: { revision, order: ++this.baseOrder } };
    this.update({ edits, bases });
  }

  /** Drops the unsaved edits under the given top-level keys (all of them without keys). */
  discard(keys?: readonly string[]): void {
    if (!keys) return this.update({ edits: {} });
    const edits = { ...this.state.edits };
    for (const key of keys) delete edits[key];
    this.update({ edits });
  }

  /**
   * `delta` reached the server (as `revision`): it leaves the edits and shows as pending until
   * confirmed. Edits typed since on the same items now build on that revision.
   */
  markSaved(delta: Delta, revision?: string): void {
    let bases: Record<string, EditBase> = this.state.bases;
    let elsewhere: Record<string, true> = this.state.elsewhere;
    if (revision) {
      this.ownRevisions.push(revision);
      if (this.ownRevisions.length > 20) this.ownRevisions.shift();
      bases = { ...bases };
      elsewhere = { ...elsewhere };
      for (const key of Object.keys(bases)) {
        if (getIn(delta, pathOfKey(key)) === undefined) continue;
        bases[key] = { revision, order: bases[key]!.order };
        delete elsewhere[key];
      }
    }
    this.update({
      edits: subtractDelta(this.state.edits, delta),
      pending: mergeDeltas(this.state.pending, delta),
      bases,
      elsewhere,
    });
  }

  /** The server's answer after a save arrived: what it holds now is the truth. */
  clearPending(): void {
    if (!isEmpty(this.state.pending)) this.update({ pending: {} });
  }

  reset(): void {
    this.memo.clear();
    this.commit(initialLiveState);
  }

  /** The saved value at `path`: the server's, with what was saved but not yet confirmed. */
  private savedAt(path: Path): unknown {
    const { node, layers } = overlayAt(this.state.server, [this.state.pending], path);
    return layers.reduce((acc, layer) => applyDelta(acc, layer), node);
  }

  private update(
    change: Partial<Pick<LiveState, 'server' | 'pending' | 'edits' | 'loaded' | 'bases' | 'elsewhere'>>,
  ): void {
    const next = { ...this.state, ...change };
    this.state = next;
    // Edits the server now matches are cleared (spec 000 §4); the walk costs the size of the edits.
    const edits = pruneEdits(next.edits, (path) => this.savedAt(path));
    // An item without edits has no base and nothing to warn about.
    const bases = isEmpty(next.bases) ? next.bases : keepEdited(next.bases, edits);
    const elsewhere = isEmpty(next.elsewhere) ? next.elsewhere : keepEdited(next.elsewhere, edits);
    this.commit({ ...next, edits, bases, elsewhere, revision: this.state.revision + 1 });
  }

  private commit(next: LiveState): void {
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}
