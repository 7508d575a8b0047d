import { type Config, isPlainObject, type Mirror } from '@sluice/api';
import type { Engine } from '../engine/engine.js';
import { streamSpec } from '../engine/stream-spec.js';
import { getIn, type LiveView } from '../live/live-view.js';
import type { Logger } from '../support/log.js';
import { isStatic, mirroredNames, mirroredStream } from './mirror-plan.js';
import { MIRROR_POLL_MS, MirrorPoller } from './mirror-poller.js';

/**
 * A stream an origin no longer lists stays for this many polls (10 s at the default 2 s): a
 * restarting origin, a stream being re-created.
 */
export const MIRROR_GRACE_POLLS = 5;

/** The poll interval the config asks for (mirror_poll_seconds), else the default. */
const pollMsOf = (config: Config) => (config.mirror_poll_seconds ?? MIRROR_POLL_MS / 1000) * 1000;

export interface MirrorsDeps {
  engine: Engine;
  view: LiveView;
  log: Logger;
  pollEveryMs?: number;
  graceMs?: number;
}

interface Placed {
  position: string;
  mirror: Mirror;
  poller: MirrorPoller;
}

/**
 * Origin mirrors (config `sources`, spec 000 §3–§4): polls each mirror's urls for the origin's
 * streams and runs each listed stream in the engine as a pulled stream, static or on demand by the
 * mirror's `only`, none of those in `except`, none that a local stream (or an earlier mirror)
 * already names. The live view gets `sources[pos].stats.servers` and `sources[pos].streams[name]`
 * (`{name, static, stats}`; the engine writes `stats`) — the shapes of @sluice/api mirror-stats.
 */
export class Mirrors {
  /** Pollers by what they poll (urls and key), so a mirror renumbered by a delete keeps its state. */
  private pollers = new Map<string, MirrorPoller>();
  private placed: Placed[] = [];
  /** Mirrored streams running, with the position of the mirror they are shown under. */
  private readonly shown = new Map<string, string>();
  private config: Config = {};
  /** What the mirrors were placed from, by content: the store edits existing items in place (config/in-place.ts). */
  private placedFrom = '';

  constructor(private readonly deps: MirrorsDeps) {}

  /** Follows the config: mirrors added, edited, deleted (by position), and local streams that take a name. */
  apply(config: Config): void {
    // Compared by content, not identity: an edit of a mirror's fields keeps the `sources` object
    // (the store writes edited items into it), and there are a few mirrors, not thousands.
    const from = JSON.stringify([
      config.sources ?? null,
      config.cluster_key ?? null,
      config.mirror_poll_seconds ?? null,
    ]);
    const sourcesChanged = from !== this.placedFrom;
    this.placedFrom = from;
    this.config = config;
    if (sourcesChanged) this.place(config);
    this.update();
  }

  close(): void {
    for (const poller of this.pollers.values()) poller.stop();
    this.pollers.clear();
    this.placed = [];
    for (const name of this.shown.keys()) this.deps.engine.setExternal(name, undefined);
    this.shown.clear();
  }

  private place(config: Config): void {
    const next = new Map<string, MirrorPoller>();
    const placed: Placed[] = [];
    const created: string[] = [];
    const before = new Map(this.placed.map((p) => [p.position, p.poller]));
    const entries = Object.entries(config.sources ?? {}).sort(([a], [b]) => Number(a) - Number(b));
    for (const [position, mirror] of entries) {
      const urls = mirror.urls ?? [];
      const key = mirror.cluster_key || config.cluster_key;
      const pollMs = this.deps.pollEveryMs ?? pollMsOf(config);
      // The interval is part of what a poller is: a new mirror_poll_seconds makes new pollers.
      let identity = JSON.stringify([urls, key ?? null, pollMs]);
      while (next.has(identity)) identity += '+';
      let poller = this.pollers.get(identity);
      if (!poller) {
        poller = new MirrorPoller(urls, key, () => this.update(), pollMs);
        created.push(position);
        this.deps.log.notice(`mirror ${urls.join(' ')}: polling the origin`);
      }
      next.set(identity, poller);
      placed.push({ position, mirror, poller });
    }
    const kept = new Set(next.values());
    for (const { position, poller } of placed) {
      if (!created.includes(position)) continue;
      // The mirror here had its urls or key edited: what it showed stays until the new urls answer.
      const previous = before.get(position);
      if (previous && !kept.has(previous)) poller.inherit(previous);
      poller.start();
    }
    for (const [identity, poller] of this.pollers) if (!next.has(identity)) poller.stop();
    this.pollers = next;
    this.placed = placed;
  }

  /** Brings the view and the engine in line with the pollers' latest answers. */
  private update(): void {
    const { engine, view } = this.deps;
    const now = Date.now();
    const local = this.config.streams ?? {};
    // A poll that ends between a config change reaching the view and apply() waits for apply().
    if (!this.viewInStep()) return;
    const wanted = new Map<string, { position: string; static: boolean; mirror: Mirror }>();
    for (const { position, mirror, poller } of this.placed) {
      if (poller.polled) this.writeServers(position, poller);
      if (!isPlainObject(getIn(view.snapshot, ['sources', position, 'streams'])))
        view.set(['sources', position, 'streams'], {});
      const listed = poller.names(now, this.deps.graceMs ?? MIRROR_GRACE_POLLS * pollMsOf(this.config));
      const taken = (name: string) => Object.hasOwn(local, name) || wanted.has(name);
      for (const name of mirroredNames(mirror, listed, taken))
        wanted.set(name, { position, static: isStatic(mirror, name), mirror });
    }
    for (const [name, position] of this.shown) {
      const next = wanted.get(name);
      if (next?.position === position) continue;
      view.set(['sources', position, 'streams', name], undefined);
      if (next) continue;
      this.shown.delete(name);
      engine.setExternal(name, undefined);
      this.deps.log.notice(`mirrored stream ${name} removed`);
    }
    for (const [name, { position, static: isStaticNow, mirror }] of wanted) {
      const path = ['sources', position, 'streams', name];
      const item = getIn(view.snapshot, path);
      // stats starts empty; the engine fills it while the stream runs or is asked for.
      if (!isPlainObject(item)) view.set(path, { name, static: isStaticNow, stats: {} });
      else if (item.static !== isStaticNow) view.set([...path, 'static'], isStaticNow);
      if (!this.shown.has(name)) this.deps.log.notice(`mirrored stream ${name} added`);
      this.shown.set(name, position);
      engine.setExternal(name, streamSpec(name, mirroredStream(mirror, name, this.config.cluster_key)), path);
    }
  }

  /** Whether the view's sources are the config this placed (the view gets config changes first). */
  private viewInStep(): boolean {
    const shown = getIn(this.deps.view.snapshot, ['sources']);
    const items = isPlainObject(shown) ? shown : {};
    if (Object.keys(items).length !== this.placed.length) return false;
    const modes = (m: Record<string, unknown>) => JSON.stringify([m.urls, m.only, m.except, m.cluster_key]);
    return this.placed.every(({ position, mirror }) => {
      const item = items[position];
      return isPlainObject(item) && modes(item) === modes(mirror);
    });
  }

  private writeServers(position: string, poller: MirrorPoller): void {
    const path = ['sources', position, 'stats'];
    const servers = poller.servers.map((s) => ({ ...s, stream_names: [...s.stream_names].sort() }));
    const current = getIn(this.deps.view.snapshot, path);
    if (JSON.stringify(current) === JSON.stringify({ servers })) return;
    for (const [i, server] of servers.entries()) {
      const before = (current as { servers?: unknown[] } | undefined)?.servers?.[i];
      const was = (before as { error?: unknown } | undefined)?.error;
      if (before !== undefined && was !== server.error)
        this.deps.log.notice(
          `mirror server ${server.name}: ${server.error === null ? 'online' : `error: ${server.error}`}`,
        );
    }
    this.deps.view.set(path, { servers });
  }
}
