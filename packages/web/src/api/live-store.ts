import { applyDelta } from '@sluice/api';
import { type Delta, mergeDeltas, type Path, pruneEdits, setEdit, subtractDelta } from './edits.js';
import { type ConnectionState, initialLiveState, type LiveState, type LiveView } from './live-state.js';

const isEmpty = (delta: Delta) => Object.keys(delta).length === 0;

/**
 * The console's one copy of the server config, kept current by the events socket, with the local
 * edits laid over it. Immutable snapshots with structural sharing: a selector sees a new value only
 * where something changed, and every update costs in proportion to the delta and the edits.
 */
export class LiveStore {
  private state: LiveState = initialLiveState;
  private readonly listeners = new Set<() => void>();

  getState = (): LiveState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** A whole config (read_config): replaces the server view; anything saved is in it now. */
  replaceServer(data: LiveView): void {
    this.update({ server: data, pending: {} });
  }

  /** A current_config_delta: only what changed since the last answer, nulls deleting. */
  applyServerDelta(delta: Delta | null): void {
    if (!delta || isEmpty(delta)) return;
    this.update({ server: applyDelta(this.state.server, delta) });
  }

  setConnection(connection: ConnectionState): void {
    if (this.state.connection !== connection) this.commit({ ...this.state, connection });
  }

  /** Sets the field at `path` to `value` in the edits (null or undefined deletes it). */
  edit(path: Path, value: unknown): void {
    const base = applyDelta(this.state.server, this.state.pending);
    const edits = setEdit(this.state.edits, base, path, value);
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
    this.update({ edits: subtractDelta(this.state.edits, delta), pending: mergeDeltas(this.state.pending, delta) });
  }

  /** The server's answer after a save arrived: what it holds now is the truth. */
  clearPending(): void {
    if (!isEmpty(this.state.pending)) this.update({ pending: {} });
  }

  reset(): void {
    this.commit(initialLiveState);
  }

  private update(change: Partial<Pick<LiveState, 'server' | 'pending' | 'edits'>>): void {
    const server = change.server ?? this.state.server;
    const pending = change.pending ?? this.state.pending;
    const base = isEmpty(pending) ? server : applyDelta(server, pending);
    // Edits the server now matches are cleared (spec 000 §4); the walk costs the size of the edits.
    const edits = pruneEdits(change.edits ?? this.state.edits, base);
    const view = isEmpty(edits) ? base : applyDelta(base, edits);
    const loaded = this.state.loaded || change.server !== undefined;
    this.commit({ ...this.state, server, pending, edits, view, loaded });
  }

  private commit(next: LiveState): void {
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}
