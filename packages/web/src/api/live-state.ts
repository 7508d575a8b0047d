import type { Config, ServerStats } from '@sluice/api';
import type { Delta } from './edits.js';

/** What the server sends: the config, each item's `stats`, the server's `stats` and its clock. */
export type LiveView = Config & { stats?: ServerStats; now_ms?: number };

/** Spec 000 §4: connected or offline; 'connecting' only until the first socket opens or fails. */
export type ConnectionState = 'connecting' | 'connected' | 'offline';

export interface LiveState {
  /** The live view as the server last described it. */
  readonly server: LiveView;
  /** Saved deltas shown until the server's next answer confirms them (no flicker back to old values). */
  readonly pending: Delta;
  /** Unsaved edits: a delta against server + pending. */
  readonly edits: Delta;
  /** server + pending + edits: what forms show. */
  readonly view: LiveView;
  /** True once the first whole config has arrived. */
  readonly loaded: boolean;
  readonly connection: ConnectionState;
}

export const initialLiveState: LiveState = {
  server: {},
  pending: {},
  edits: {},
  view: {},
  loaded: false,
  connection: 'connecting',
};
