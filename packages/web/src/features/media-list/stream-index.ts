import {
  featureFilters,
  type LocalFilter,
  type MediaFilter,
  normalizeQuery,
  sortBy,
  type SortKey,
  type SortState,
  statusFilters,
} from '@sluice/api';
import { revisionOf } from '../../api/live-tree.js';
import { factsChange, type NamedStream, type StreamFacts, streamFacts } from './stream-facts.js';

export type StreamMap = Readonly<Record<string, NamedStream>>;

/** What the list shows: filter toggles, text query, local filter and sort (spec 000 §2). */
export interface ListSpec {
  readonly filters: readonly MediaFilter[];
  readonly query: string;
  readonly local: LocalFilter | undefined;
  readonly sort: SortState;
}

export interface ListView {
  /** The names to show, in order. */
  readonly names: readonly string[];
  /** Per toggle: the streams the query and local filter let through that match it. */
  readonly counts: Readonly<Record<MediaFilter, number>>;
  readonly total: number;
}

type Gen = 'structure' | 'status' | 'clients' | 'bitrate' | 'runtime';
const statsKeys: readonly Gen[] = ['clients', 'bitrate', 'runtime'];

/**
 * The stream list of 20,000 streams kept current at the cost of what changed. A stream's facts
 * (status toggle, search text, sort values) are worked out again only when its object changed —
 * the live store gives a changed stream a new identity and keeps the others'. Filtering, counting
 * and sorting run again only when a fact they depend on changed; otherwise view() returns the
 * very same ListView, so the table does not re-render for a delta that moves nothing.
 */
export class StreamIndex {
  private readonly facts = new Map<string, StreamFacts>();
  private source: StreamMap | undefined;
  private revision = -1;
  private urlPublish = false;
  private readonly gens: Record<Gen, number> = {
    structure: 0,
    status: 0,
    clients: 0,
    bitrate: 0,
    runtime: 0,
  };
  private configOrder: string[] = [];
  private orderGen = -1;
  private filtered: { key: string; names: string[]; counts: Record<MediaFilter, number> } | undefined;
  private last: { key: string; view: ListView } | undefined;

  /** Takes the streams map as the store now holds it (changed in place when wide: see live-tree.ts). */
  update(streams: StreamMap | undefined, urlPublish: boolean): void {
    const map = streams ?? {};
    if (map === this.source && revisionOf(map) === this.revision && urlPublish === this.urlPublish) return;
    const rebuild = urlPublish !== this.urlPublish;
    this.source = map;
    this.revision = revisionOf(map);
    this.urlPublish = urlPublish;
    let seen = 0;
    for (const name in map) {
      seen++;
      const item = map[name]!;
      const old = this.facts.get(name);
      if (old && old.item === item && !rebuild) continue;
      const facts = streamFacts(name, item, urlPublish, old);
      this.facts.set(name, facts);
      if (!old) this.gens.structure++;
      else this.bump(factsChange(old, facts));
    }
    if (seen !== this.facts.size) {
      for (const name of this.facts.keys()) if (!Object.hasOwn(map, name)) this.facts.delete(name);
      this.gens.structure++;
    }
    if (this.gens.structure !== this.orderGen) this.sortConfigOrder();
  }

  view(spec: ListSpec): ListView {
    const filtered = this.filter(spec);
    const sortGen = statsKeys.includes(spec.sort.key as Gen) ? this.gens[spec.sort.key as Gen] : 0;
    const key = `${filtered.key}|${spec.sort.key}:${spec.sort.direction}:${sortGen}`;
    if (this.last?.key === key) return this.last.view;
    const names =
      spec.sort.key === 'position' && spec.sort.direction === 'asc'
        ? filtered.names
        : sortBy(filtered.names, spec.sort, this.sortValueOf, this.positionOf);
    const view = { names, counts: filtered.counts, total: this.facts.size };
    this.last = { key, view };
    return view;
  }

  private bump(change: Record<Gen, boolean>): void {
    for (const gen of Object.keys(this.gens) as Gen[]) if (change[gen]) this.gens[gen]++;
  }

  private sortConfigOrder(): void {
    this.orderGen = this.gens.structure;
    this.configOrder = [...this.facts.keys()];
    this.configOrder.sort((a, b) => this.positionOf(a) - this.positionOf(b) || (a < b ? -1 : 1));
  }

  private readonly positionOf = (name: string) => this.facts.get(name)?.position ?? 0;

  private readonly sortValueOf = (name: string, key: SortKey): number | string => {
    const facts = this.facts.get(name);
    if (!facts) return 0;
    switch (key) {
      case 'name':
        return name;
      case 'position':
        return facts.position;
      default:
        return facts[key];
    }
  };

  /** Filtering and counting in one pass over config order; kept while nothing it reads changed. */
  private filter(spec: ListSpec) {
    const query = normalizeQuery(spec.query);
    const key = `${this.gens.structure}:${this.gens.status}|${spec.filters.join(',')}|${spec.local ?? ''}|${query}`;
    if (this.filtered?.key === key) return this.filtered;
    const wantStatus = statusFilters.find((f) => spec.filters.includes(f));
    const wantFeatures = featureFilters.filter((f) => spec.filters.includes(f));
    const counts: Record<MediaFilter, number> = { online: 0, waiting: 0, error: 0, dvr: 0, transcoder: 0 };
    const names: string[] = [];
    for (const name of this.configOrder) {
      const f = this.facts.get(name)!;
      if (query && !f.haystack.includes(query)) continue;
      if (spec.local === 'published' ? !f.published : spec.local === 'no_sources' && !f.noSources) continue;
      if (f.status) counts[f.status]++;
      if (f.dvr) counts.dvr++;
      if (f.transcoder) counts.transcoder++;
      if (wantStatus && f.status !== wantStatus) continue;
      if (wantFeatures.some((feature) => !f[feature])) continue;
      names.push(name);
    }
    this.filtered = { key, names, counts };
    return this.filtered;
  }
}
