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
import { changedKeysSince, revisionOf } from '../../api/live-tree.js';
import { factsChange, type NamedStream, type StreamFacts, streamFacts } from './stream-facts.js';

export type StreamMap = Readonly<Record<string, NamedStream>>;

/** What the list shows: filter toggles, text query, local filter and sort (spec 000 §2). */
export interface ListSpec {
  readonly filters: readonly MediaFilter[];
  readonly query: string;
  readonly local: LocalFilter | undefined;
  readonly sort: SortState;
}

export type FilterCounts = Readonly<Record<MediaFilter, number>>;

export interface ListView {
  /** The names to show, in order. */
  readonly names: readonly string[];
  /** Per toggle: the streams the query and local filter let through that match it. */
  readonly counts: FilterCounts;
  readonly total: number;
}

const EMPTY: StreamMap = {};
type Gen = 'structure' | 'status' | 'clients' | 'bitrate' | 'runtime';
const statsKeys: readonly string[] = ['clients', 'bitrate', 'runtime'];

/** A stream's current facts; the entry stays while the facts in it are replaced. */
interface Entry {
  readonly name: string;
  facts: StreamFacts;
}

/**
 * The stream list of 20,000 streams kept current at the cost of what changed. A stream's facts
 * (status toggle, search text, sort values) are worked out again only for the streams a delta
 * touched (the wide map's change log says which; see live-tree.ts). Counting, filtering and
 * sorting run again only when a fact they depend on changed; rows that come out the same keep
 * their array and an unchanged view its object, so the table does not re-render for a delta that
 * moves nothing on it.
 */
export class StreamIndex {
  private readonly entries = new Map<string, Entry>();
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
  /** Every entry in config order, as of `orderGen`. */
  private ordered: Entry[] = [];
  private orderGen = -1;
  private counted: { key: string; counts: FilterCounts } | undefined;
  /** The counts with no query and no local filter, kept up to date stream by stream. */
  private readonly allCounts: Record<MediaFilter, number> = {
    online: 0,
    waiting: 0,
    error: 0,
    dvr: 0,
    transcoder: 0,
  };
  private filtered: { key: string; names: string[] } | undefined;
  private last: { key: string; view: ListView } | undefined;

  /** Takes the streams map as the store now holds it (changed in place when wide). */
  update(streams: StreamMap | undefined, urlPublish: boolean): void {
    const map = streams ?? EMPTY;
    const revision = revisionOf(map);
    const sameSource = map === this.source && urlPublish === this.urlPublish;
    if (sameSource && revision === this.revision) return;
    const touched = sameSource ? changedKeysSince(map, this.revision) : undefined;
    const rebuild = urlPublish !== this.urlPublish;
    this.source = map;
    this.revision = revision;
    this.urlPublish = urlPublish;
    if (touched) {
      for (const name of touched) this.refresh(name, Object.hasOwn(map, name) ? map[name] : undefined, false);
    } else {
      let seen = 0;
      for (const name in map) {
        seen++;
        this.refresh(name, map[name], rebuild);
      }
      if (seen !== this.entries.size)
        for (const name of this.entries.keys())
          if (!Object.hasOwn(map, name)) this.refresh(name, undefined, false);
    }
    if (this.gens.structure !== this.orderGen) this.sortConfigOrder();
  }

  view(spec: ListSpec): ListView {
    const query = normalizeQuery(spec.query);
    const counts = this.count(spec, query);
    const names = this.filter(spec, query);
    const sortGen = statsKeys.includes(spec.sort.key) ? this.gens[spec.sort.key as Gen] : 0;
    const key = `${this.filtered!.key}|${spec.sort.key}:${spec.sort.direction}:${sortGen}`;
    const previous = this.last?.view;
    let sorted = this.last?.key === key ? previous!.names : names;
    if (sorted === names && !(spec.sort.key === 'position' && spec.sort.direction === 'asc'))
      sorted = sortBy(names, spec.sort, this.sortValueOf, this.positionOf);
    // Rows that come out the same keep their array, and an unchanged view its object.
    if (previous && sameItems(previous.names, sorted)) sorted = previous.names;
    const view =
      previous &&
      previous.names === sorted &&
      previous.counts === counts &&
      previous.total === this.entries.size
        ? previous
        : { names: sorted, counts, total: this.entries.size };
    this.last = { key, view };
    return view;
  }

  private refresh(name: string, item: NamedStream | undefined, rebuild: boolean): void {
    const entry = this.entries.get(name);
    if (!item) {
      if (!entry) return;
      this.entries.delete(name);
      tally(this.allCounts, entry.facts, -1);
      this.gens.structure++;
      return;
    }
    if (entry && entry.facts.item === item && !rebuild) return;
    const facts = streamFacts(name, item, this.urlPublish, entry?.facts);
    tally(this.allCounts, facts, 1);
    if (!entry) {
      this.entries.set(name, { name, facts });
      this.gens.structure++;
      return;
    }
    tally(this.allCounts, entry.facts, -1);
    const change = factsChange(entry.facts, facts);
    entry.facts = facts;
    for (const gen of Object.keys(this.gens) as Gen[]) if (change[gen]) this.gens[gen]++;
  }

  private sortConfigOrder(): void {
    this.orderGen = this.gens.structure;
    this.ordered = [...this.entries.values()];
    this.ordered.sort((a, b) => a.facts.position - b.facts.position || (a.name < b.name ? -1 : 1));
  }

  private readonly positionOf = (name: string) => this.entries.get(name)?.facts.position ?? 0;

  private readonly sortValueOf = (name: string, key: SortKey): number | string => {
    const facts = this.entries.get(name)?.facts;
    if (!facts) return 0;
    return key === 'name' ? name : facts[key];
  };

  /** The toggles' counts: depend on status facts, never on the toggles themselves. */
  private count(spec: ListSpec, query: string): FilterCounts {
    const key = `${this.gens.structure}:${this.gens.status}|${spec.local ?? ''}|${query}`;
    if (this.counted?.key === key) return this.counted.counts;
    let counts: Record<MediaFilter, number>;
    if (!query && !spec.local) counts = { ...this.allCounts };
    else {
      counts = { online: 0, waiting: 0, error: 0, dvr: 0, transcoder: 0 };
      for (const { facts } of this.ordered) if (passes(facts, query, spec.local)) tally(counts, facts, 1);
    }
    const previous = this.counted?.counts;
    this.counted = { key, counts: previous && sameCounts(previous, counts) ? previous : counts };
    return this.counted.counts;
  }

  /** The rows in config order: status facts matter only while a toggle or the local filter is on. */
  private filter(spec: ListSpec, query: string): string[] {
    const wantStatus = statusFilters.find((f) => spec.filters.includes(f));
    const wantFeatures = featureFilters.filter((f) => spec.filters.includes(f));
    const byStatus = spec.filters.length > 0 || spec.local !== undefined;
    const key = `${this.gens.structure}:${byStatus ? this.gens.status : ''}|${spec.filters.join(',')}|${spec.local ?? ''}|${query}`;
    if (this.filtered?.key === key) return this.filtered.names;
    const names: string[] = [];
    for (const { name, facts: f } of this.ordered) {
      if (!passes(f, query, spec.local)) continue;
      if (wantStatus && f.status !== wantStatus) continue;
      if (wantFeatures.some((feature) => !f[feature])) continue;
      names.push(name);
    }
    const previous = this.filtered?.names;
    this.filtered = { key, names: previous && sameItems(previous, names) ? previous : names };
    return this.filtered.names;
  }
}

/** Adds (`sign` 1) or takes away (-1) a stream's part in the toggle counts. */
function tally(counts: Record<MediaFilter, number>, f: StreamFacts, sign: 1 | -1): void {
  if (f.status) counts[f.status] += sign;
  if (f.dvr) counts.dvr += sign;
  if (f.transcoder) counts.transcoder += sign;
}

function passes(f: StreamFacts, query: string, local: LocalFilter | undefined): boolean {
  if (query && !f.haystack.includes(query)) return false;
  if (local === 'published') return f.published;
  return local !== 'no_sources' || f.noSources;
}

function sameItems(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const sameCounts = (a: FilterCounts, b: FilterCounts) =>
  a.online === b.online &&
  a.waiting === b.waiting &&
  a.error === b.error &&
  a.dvr === b.dvr &&
  a.transcoder === b.transcoder;
