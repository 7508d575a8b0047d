import type { Config, ServerStats } from '@sluice/api';
import type { EditBase } from './edit-bases.js';
import type { Delta } from './edits.js';

/**
 * What the server sends: the config, each item's `stats`, the server's `stats`, its clock and the
 * config's revision (what a save names as If-Match).
 */
export type LiveView = Config & { stats?: ServerStats; now_ms?: number; config_revision?: string };

/** Spec 000 §4: connected or offline; 'connecting' only until the first socket opens or fails. */
export type ConnectionState = 'connecting' | 'connected' | 'offline';

/**
 * One immutable snapshot of the store. Read config values with `viewAt` (live-selectors.ts), which
 * lays the edits over the server's values; the fields here are the raw layers.
 */
export interface LiveState {
  /** The live view as the server last described it (wide maps change in place, see live-tree.ts). */
  readonly server: LiveView;
  /** Saved deltas shown until the server's next answer confirms them (no flicker back to old values). */
  readonly pending: Delta;
  /** Unsaved edits: a delta against server + pending. */
  readonly edits: Delta;
  /** Per item with unsaved edits (edit-bases.ts itemKeyOf): the revision its first edit was made at. */
  readonly bases: Readonly<Record<string, EditBase>>;
  /** Items with unsaved edits that someone else changed since (itemKeyOf → true). */
  readonly elsewhere: Readonly<Record<string, true>>;
  /** True once the first whole config has arrived. */
  readonly loaded: boolean;
  readonly connection: ConnectionState;
  /** Counts updates; changes with every snapshot. */
  readonly revision: number;
}

export const initialLiveState: LiveState = {
  server: {},
  pending: {},
  edits: {},
  bases: {},
  elsewhere: {},
  loaded: false,
  connection: 'connecting',
  revision: 0,
};
