import { applyDelta } from '@sluice/api';
import { type Delta, mergeDeltas, type Path, pruneEdits, setEdit, subtractDelta } from './edits.js';
import { type ConnectionState, initialLiveState, type LiveState, type LiveView } from './live-state.js';
import { applyServerDelta, OverlayMemo, overlayAt } from './live-tree.js';

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
    this.memo.clear();
    this.update({ server: data, pending: {}, loaded: true });
  }

  /** A current_config_delta: only what changed since the last answer, nulls deleting. */
  applyServerDelta(delta: Delta | null): void {
    if (!delta || isEmpty(delta)) return;
    this.update({ server: applyServerDelta(this.state.server, delta) as LiveView });
  }

  setConnection(connection: ConnectionState): void {
    if (this.state.connection !== connection) this.commit({ ...this.state, connection });
  }

  /** Sets the field at `path` to `value` in the edits (null or undefined deletes it). */
  edit(path: Path, value: unknown): void {
    const edits = setEdit(this.state.edits, this.savedAt(path), path, value);
    if (edits !== this.state.edits) this.update({ edits });
  }

  /** Drops the unsaved edits under the given top-level keys (all of them without keys). */
  discard(keys?: readonly string[]): void {
    if (!keys) return this.update({ edits: {} });
    const edits = { ...this.state.edits };
    for (const key of keys) delete edits[key];
    this.update({ edits });
  }

  /** `delta` reached the server: it leaves the edits and shows as pending until confirmed. */
  markSaved(delta: Delta): void {
    this.update({
      edits: subtractDelta(this.state.edits, delta),
      pending: mergeDeltas(this.state.pending, delta),
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

  private update(change: Partial<Pick<LiveState, 'server' | 'pending' | 'edits' | 'loaded'>>): void {
    const next = { ...this.state, ...change };
    this.state = next;
    // Edits the server now matches are cleared (spec 000 §4); the walk costs the size of the edits.
    const edits = pruneEdits(next.edits, (path) => this.savedAt(path));
    this.commit({ ...next, edits, revision: this.state.revision + 1 });
  }

  private commit(next: LiveState): void {
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}
