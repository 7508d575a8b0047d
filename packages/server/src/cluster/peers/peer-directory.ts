import type { ClusterFigures, ClusterPeerStream, Config } from '@sluice/api';
import type { Logger } from '../../support/log.js';
import type { LocalServer } from './local-server.js';
import { PEER_POLL_TIMEOUT_MS, type PeerTarget, pollPeer } from './peer-poll.js';

/** Default seconds between two polls of one peer (config `peer_poll_seconds`). */
export const PEER_POLL_SECONDS = 2;

/** What this server knows of one configured peer now. */
export interface PeerState {
  /** The `peers` key (its host), as Overview names it. */
  name: string;
  host: string;
  port: number;
  /** The `peer` line names this server itself (recognised by its answer): not polled again. */
  self: boolean;
  /** Its last poll answered: figures and streams are fresh. */
  reachable: boolean;
  /** Why the last poll failed ('connection refused', 'timeout', 'wrong cluster key', …); null when it answered. */
  error: string | null;
  /** Figures of the last good poll (kept, with fetchedAtMs, while it fails). */
  figures?: ClusterFigures;
  /** Streams of the last good poll (an empty list while it is unreachable: viewers are not sent there). */
  streams: readonly ClusterPeerStream[];
  /** The names of `streams`, for lookups per viewer. */
  streamNames: ReadonlySet<string>;
  /** ms since epoch of the last good poll. */
  fetchedAtMs?: number;
  /** How long the last poll took, ms. */
  pollMs?: number;
}

export type PeerListener = (peer: PeerState) => void;

/**
 * The live peer view: every server in the config's `peers` asked for its figures and streams (a
 * keyed proof, cluster/proof.ts), each on its own timer and bounded to PEER_POLL_TIMEOUT_MS, so a
 * peer that is down or slow never holds up the others. Listeners hear every poll's result.
 */
export class PeerDirectory {
  private readonly pollers = new Map<string, PeerPoller>();
  private readonly listeners = new Set<PeerListener>();
  private clusterKey: string | undefined;
  private everyMs = PEER_POLL_SECONDS * 1000;

  constructor(
    readonly local: LocalServer,
    private readonly log?: Pick<Logger, 'notice'>,
  ) {}

  /** The peers as last polled, in config order. */
  peers(): PeerState[] {
    return [...this.pollers.values()].map((p) => p.state);
  }

  peer(name: string): PeerState | undefined {
    return this.pollers.get(name)?.state;
  }

  /** Called after each poll of any peer (and when the peer list changes); returns the unsubscribe. */
  onChange(listener: PeerListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Follows the config: pollers for new peers, none for removed ones; a new key or interval applies at the next poll. */
  apply(config: Config): void {
    this.clusterKey = config.cluster_key;
    this.everyMs = (config.peer_poll_seconds ?? PEER_POLL_SECONDS) * 1000;
    const wanted = new Map<string, PeerTarget>();
    const entries = Object.entries(config.peers ?? {}).sort(
      ([, a], [, b]) => (a.position ?? 0) - (b.position ?? 0),
    );
    for (const [name, peer] of entries) wanted.set(name, peerTarget(peer.name ?? name, peer.port));
    for (const [name, poller] of this.pollers) {
      const target = wanted.get(name);
      if (!target || target.host !== poller.state.host || target.port !== poller.state.port) {
        poller.stop();
        this.pollers.delete(name);
      }
    }
    // Re-inserted in config order.
    const kept = new Map(this.pollers);
    this.pollers.clear();
    for (const [name, target] of wanted) {
      const poller =
        kept.get(name) ??
        new PeerPoller(name, target, {
          key: () => this.clusterKey,
          everyMs: () => this.everyMs,
          instance: this.local.instance,
          changed: (state) => this.emit(state),
          log: this.log,
        });
      this.pollers.set(name, poller);
      if (!kept.has(name)) poller.start();
    }
  }

  close(): void {
    for (const poller of this.pollers.values()) poller.stop();
    this.pollers.clear();
    this.listeners.clear();
  }

  private emit(state: PeerState): void {
    for (const listener of this.listeners) listener(state);
  }
}

interface PollerDeps {
  key: () => string | undefined;
  everyMs: () => number;
  instance: string;
  changed: (state: PeerState) => void;
  log?: Pick<Logger, 'notice'> | undefined;
}

/** One peer's poll loop: the next poll is timed from the end of the last one. */
class PeerPoller {
  state: PeerState;
  private rev: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    name: string,
    target: PeerTarget,
    private readonly deps: PollerDeps,
  ) {
    this.state = {
      name,
      ...target,
      self: false,
      reachable: false,
      error: 'connecting',
      streams: [],
      streamNames: new Set(),
    };
  }

  start(): void {
    void this.poll();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private async poll(): Promise<void> {
    const started = performance.now();
    const previous = this.state;
    try {
      const answer = await pollPeer(previous, this.deps.key(), this.rev, PEER_POLL_TIMEOUT_MS);
      if (this.stopped) return;
      if (answer.server.instance === this.deps.instance) {
        // `peer` names this server itself: shown as such, never polled again (until the line changes).
        this.state = {
          ...previous,
          self: true,
          reachable: true,
          error: null,
          streams: [],
          streamNames: new Set(),
        };
        this.deps.log?.notice(`peer ${previous.name} is this server itself: not polled`);
        this.deps.changed(this.state);
        return;
      }
      const streams = answer.streams ?? (this.rev === answer.streams_rev ? previous.streams : undefined);
      this.rev = streams ? answer.streams_rev : undefined;
      this.state = {
        ...previous,
        reachable: true,
        error: null,
        figures: answer.server,
        streams: streams ?? [],
        streamNames:
          streams === previous.streams ? previous.streamNames : new Set((streams ?? []).map((s) => s.name)),
        fetchedAtMs: Date.now(),
        pollMs: Math.round(performance.now() - started),
      };
      if (previous.error && previous.error !== 'connecting')
        this.deps.log?.notice(`peer ${previous.name} answers again`);
    } catch (error) {
      if (this.stopped) return;
      const message = (error as Error).message;
      if (message !== previous.error) this.deps.log?.notice(`peer ${previous.name}: ${message}`);
      // Its streams are forgotten: no viewer is sent to a peer that does not answer.
      this.rev = undefined;
      this.state = {
        ...previous,
        reachable: false,
        error: message,
        streams: [],
        streamNames: new Set(),
        pollMs: Math.round(performance.now() - started),
      };
    }
    this.deps.changed(this.state);
    this.timer = setTimeout(() => void this.poll(), this.deps.everyMs());
  }
}

/**
 * Where a peer is reached. The text config splits `peer HOST:PORT;` into a host key and a port; a
 * key written as `HOST:PORT` through the API (the only way to name two servers on one host) is split
 * here, so it is polled rather than refused as an invalid URL. Port 80 when none is given.
 */
export function peerTarget(hostOrPair: string, port: number | undefined): PeerTarget {
  const pair = /^([^:[\]]+|\[[^\]]+\]):(\d{1,5})$/.exec(hostOrPair);
  if (port === undefined && pair) return { host: pair[1]!, port: Number(pair[2]) };
  return { host: hostOrPair, port: port ?? 80 };
}
