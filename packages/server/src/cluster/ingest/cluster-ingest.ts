import type { FastifyRequest } from 'fastify';
import type { Config, Stream } from '@sluice/api';
import type { Engine } from '../../engine/engine.js';
import { streamSpec, type StreamSpec } from '../../engine/stream-spec.js';
import { HttpError } from '../../http/errors.js';
import { getIn, type LiveView } from '../../live/live-view.js';
import type { Logger } from '../../support/log.js';
import { pullUrl } from '../mirror-plan.js';
import { NonceMemory, verifyClusterRequest } from '../proof.js';
import { EtcdLeases, LEASE_SECONDS } from './etcd-leases.js';
import { IngestPeers } from './ingest-peers.js';
import { ingestIdOf, type IngestState, peerBaseUrl } from './ingest-wire.js';
import { type Candidate, chooseCapturer } from './rendezvous.js';

/** Default seconds between asks of each peer (cluster_ingest_poll_seconds). */
export const INGEST_POLL_SECONDS = 1;
/** A capture that has had no packet for this long has lost its source here. */
export const CAPTURE_FAIL_AFTER_MS = 3000;
/** A pull waiting for its new capturer to say it captures asks again this soon. */
export const SWITCH_ASK_MS = 200;
/** A server that lost a stream's source is passed over for it this long. */
export const FAILING_FOR_MS = 30_000;

export interface ClusterIngestDeps {
  engine: () => Engine;
  view: LiveView;
  log: Logger;
  machineHostname: string;
}

/**
 * Cluster ingest (docs/media.md "Cluster ingest"): a stream with `cluster_ingest` runs its sources
 * on one server of the cluster; every other server runs it as an on-demand pull of that server's
 * MPEG-TS with the cluster key proof, once however many viewers it has. Who captures is decided by
 * rendezvous hashing over the live peers (default), or by a lease in etcd (`cluster_etcd`).
 */
export class ClusterIngest {
  private config: Config = {};
  private names: string[] = [];
  private nameSet = new Set<string>();
  selfId = '';
  /** Stream → the server capturing it, as decided here (undefined: nobody known yet). */
  private readonly capturer = new Map<string, string | undefined>();
  private readonly failingUntil = new Map<string, number>();
  private readonly captureSince = new Map<string, number>();
  private peers: IngestPeers | undefined;
  private leases: EtcdLeases | undefined;
  private placedFrom = '';
  private readonly seen = new NonceMemory();

  constructor(private readonly deps: ClusterIngestDeps) {}

  private joinsOrLeaves(streams: NonNullable<Config['streams']>, name: string): boolean {
    return (streams[name]?.cluster_ingest === true) !== this.nameSet.has(name);
  }

  /** `changedStreams`: the only streams an edit can have changed (undefined: any of them). */
  apply(config: Config, changedStreams?: readonly string[]): void {
    this.config = config;
    this.selfId = ingestIdOf(config, this.deps.machineHostname);
    const streams = config.streams ?? {};
    // Walking 20,000 streams for the few that use cluster ingest took ~7 ms per edit (issue 20):
    // an edit that makes no stream join or leave them keeps the list.
    if (!changedStreams || changedStreams.some((name) => this.joinsOrLeaves(streams, name))) {
      this.names = Object.keys(streams).filter((name) => streams[name]!.cluster_ingest === true);
      this.nameSet = new Set(this.names);
    }
    const peerUrls = Object.values(config.peers ?? {}).map((p) => peerBaseUrl(p.name ?? '', p.port));
    const from = JSON.stringify([
      this.names.length > 0,
      peerUrls,
      config.cluster_key ?? null,
      config.cluster_ingest_poll_seconds ?? null,
      config.cluster_etcd ?? null,
      config.cluster_lease_seconds ?? null,
      this.selfId,
    ]);
    if (from === this.placedFrom) return;
    this.placedFrom = from;
    this.peers?.stop();
    this.peers = undefined;
    void this.leases?.close();
    this.leases = undefined;
    if (this.names.length === 0) return;
    const everyMs = (config.cluster_ingest_poll_seconds ?? INGEST_POLL_SECONDS) * 1000;
    if (config.cluster_etcd?.length) {
      const ttl = config.cluster_lease_seconds ?? LEASE_SECONDS;
      this.leases = new EtcdLeases(config.cluster_etcd, ttl, this.selfId, this.deps.log);
    }
    this.peers = new IngestPeers(peerUrls, config.cluster_key, everyMs, () => this.round());
    this.peers.start();
  }

  /** The spec a configured stream runs as here (the engine's specOf). */
  specOf(name: string, stream: Stream): StreamSpec {
    const own = streamSpec(name, stream);
    if (stream.cluster_ingest !== true) return own;
    const at = this.capturer.get(name);
    if (at === this.selfId) return own;
    const url = at === undefined ? undefined : this.urlOf(at);
    // Pulled on demand from the capturer: its pushes, transcoder and publish rules run there only.
    return {
      ...own,
      sources: url ? [{ url: pullUrl(url, name) }] : [],
      static: false,
      pushes: [],
      transcoder: undefined,
      onPublish: undefined,
      clusterKey: this.config.cluster_key,
    };
  }

  /** What this server tells its peers (GET /flussonic/api/cluster/ingest). */
  state(nowMs = Date.now()): IngestState & { running: string[] } {
    const capturing = this.names.filter((n) => this.capturer.get(n) === this.selfId);
    const engine = this.deps.engine();
    return {
      id: this.selfId,
      ingest: this.names,
      capturing,
      failing: this.names.filter((n) => (this.failingUntil.get(n) ?? 0) > nowMs),
      over_bandwidth: this.overBandwidth(),
      running: capturing.filter((n) => engine.get(n)?.running === true),
    };
  }

  /** The route: answered to a peer proving the cluster key, like the mirrors' list call. */
  readonly handler = async (request: FastifyRequest) => {
    const url = request.raw.url ?? request.url;
    const verdict = verifyClusterRequest(
      { url, headers: request.headers },
      this.config.cluster_key,
      Date.now(),
      this.seen,
    );
    if (!verdict.ok) throw new HttpError(403, verdict.reason);
    return this.state();
  };

  /** This server captures `name` (a cluster ingest stream whose sources run here). */
  capturesHere(name: string): boolean {
    return this.capturer.get(name) === this.selfId && this.deps.engine().get(name)?.running === true;
  }

  /** Each ingest stream and the server capturing it as this server knows (the console's ?ingest=true). */
  streams(): { name: string; capturer: string | null }[] {
    return this.names.map((name) => ({ name, capturer: this.capturer.get(name) ?? null }));
  }

  /** Header notices: etcd out of reach (leases frozen). */
  notices(): Record<string, string> {
    const error = this.leases?.error;
    return error
      ? { error_cluster_etcd: `${error}: cluster ingest leases are frozen, streams stay where they are` }
      : {};
  }

  close(): void {
    this.peers?.stop();
    this.peers = undefined;
    void this.leases?.close();
    this.leases = undefined;
  }

  /** After each round of asks: etcd's round (coordinated mode), then who captures what. */
  private async round(): Promise<void> {
    const now = Date.now();
    this.noteFailures(now);
    const leases = this.leases;
    if (leases) {
      await leases.round(
        this.names,
        (name, freeRounds) => this.mayClaim(name, freeRounds, now),
        (name) => (this.failingUntil.get(name) ?? 0) > now,
      );
      if (leases !== this.leases) return;
      // Cut from etcd and from every peer: etcd may let this server's keys go any moment (its lease
      // is not renewed) and the other side take them; it stops capturing at once rather than risk
      // capturing twice. Cut from etcd alone, its peers see it capture and leave the stream to it.
      const peers = this.peers?.peers ?? [];
      if (leases.error && peers.length > 0 && peers.every((p) => !p.state))
        for (const name of leases.dropOwn())
          this.deps.log.error(`cluster ingest ${name}: cut from etcd and every peer, capture stopped`);
    }
    const changed: string[] = [];
    for (const name of this.names) {
      const next = leases ? this.leaseChoice(name, leases) : this.hashChoice(name, now);
      if (next === this.capturer.get(name)) continue;
      // A pull starts once the new capturer says it captures: connected before, it would reach the
      // old pull there being replaced, and the pull's retries back off (1, 2, 4 s…).
      if (next !== undefined && next !== this.selfId && !this.peerCaptures(next, name)) {
        this.peers?.soon(SWITCH_ASK_MS);
        continue;
      }
      this.capturer.set(name, next);
      if (next === this.selfId) this.captureSince.set(name, now);
      this.deps.log.notice(
        `cluster ingest ${name}: ${next === this.selfId ? 'captured here' : `pulled from ${next ?? 'nobody yet'}`}`,
      );
      changed.push(name);
    }
    if (changed.length > 0) this.deps.engine().reconsider(changed);
  }

  private candidates(name: string, now: number): Candidate[] {
    const out: Candidate[] = [
      {
        id: this.selfId,
        overBandwidth: this.overBandwidth(),
        failing: (this.failingUntil.get(name) ?? 0) > now,
        capturing: this.capturer.get(name) === this.selfId,
      },
    ];
    for (const { state } of this.peers?.peers ?? []) {
      // A peer line naming this server itself is skipped.
      if (!state || state.id === this.selfId || out.some((c) => c.id === state.id)) continue;
      // A peer that does not mark the stream for ingest (its config differs) can't capture it.
      if (!setsOf(state).ingest.has(name)) continue;
      out.push({
        id: state.id,
        overBandwidth: state.over_bandwidth,
        failing: setsOf(state).failing.has(name),
        capturing: setsOf(state).capturing.has(name),
      });
    }
    return out;
  }

  private hashChoice(name: string, now: number): string | undefined {
    return chooseCapturer(name, this.candidates(name, now));
  }

  /** etcd's holder; with no holder, a live peer still capturing it (cut from etcd); frozen: as before. */
  private leaseChoice(name: string, leases: EtcdLeases): string | undefined {
    const holder = leases.holders.get(name);
    if (holder !== undefined) return holder;
    if (leases.error && this.capturer.get(name) !== this.selfId) return this.capturer.get(name);
    return this.peers?.peers.find((p) => p.state && setsOf(p.state).capturing.has(name))?.state?.id;
  }

  /**
   * A free key is claimed by the server hashing puts first (spread like the default mode), by any
   * after two free rounds (the first can't reach etcd), at once by the one capturing it now (its
   * lease expired while etcd was away) — never while a live peer says it captures it.
   */
  private mayClaim(name: string, freeRounds: number, now: number): boolean {
    if (
      this.peers?.peers.some(
        (p) => p.state && p.state.id !== this.selfId && setsOf(p.state).capturing.has(name),
      )
    )
      return false;
    if (this.capturer.get(name) === this.selfId) return true;
    if ((this.failingUntil.get(name) ?? 0) > now) return false;
    return freeRounds > 2 || this.hashChoice(name, now) === this.selfId;
  }

  /** A capture here with no packet for CAPTURE_FAIL_AFTER_MS has lost its source: another server is tried. */
  private noteFailures(now: number): void {
    const engine = this.deps.engine();
    for (const name of this.names) {
      if (this.capturer.get(name) !== this.selfId || (this.failingUntil.get(name) ?? 0) > now) continue;
      if (!engine.get(name)?.running || now - (this.captureSince.get(name) ?? now) < CAPTURE_FAIL_AFTER_MS)
        continue;
      const delay = getIn(this.deps.view.snapshot, ['streams', name, 'stats', 'ts_delay']);
      if (typeof delay !== 'number' || delay < CAPTURE_FAIL_AFTER_MS) continue;
      this.failingUntil.set(name, now + FAILING_FOR_MS);
      this.deps.log.error(
        `cluster ingest ${name}: no packet for ${delay} ms here, another server may take it`,
      );
    }
  }

  private overBandwidth(): boolean {
    const limit = this.config.total_bandwidth;
    if (!limit) return false;
    return this.deps.engine().traffic().outputKbit * 1000 > limit;
  }

  private peerCaptures(id: string, name: string): boolean {
    const state = this.peers?.peers.find((p) => p.state?.id === id)?.state;
    return state !== undefined && setsOf(state).capturing.has(name);
  }

  private urlOf(id: string): string | undefined {
    return this.peers?.peers.find((p) => p.state?.id === id)?.url;
  }
}

type StateSets = { ingest: Set<string>; capturing: Set<string>; failing: Set<string> };
const stateSets = new WeakMap<IngestState, StateSets>();

/** A peer answer's lists as sets, made once per answer (each round asks about every ingest stream). */
function setsOf(state: IngestState): StateSets {
  let sets = stateSets.get(state);
  if (!sets) {
    sets = {
      ingest: new Set(state.ingest),
      capturing: new Set(state.capturing),
      failing: new Set(state.failing),
    };
    stateSets.set(state, sets);
  }
  return sets;
}
