import { isPlainObject } from '@sluice/api';

type Path = readonly string[];

/**
 * What the console sees: the config with each item's `stats` and the server's `stats` at the top.
 * Every change is logged by path with a version number, so a websocket's delta is built from the
 * changes since its last answer: its cost grows with the number of changes, not with the number of
 * streams. The view's own containers change in place (see batch); read the snapshot, don't keep it.
 */
export class LiveView {
  private readonly root: Record<string, unknown> = {};
  /** The containers this view created, which it may change in place (see batch). */
  private readonly owned = new WeakSet<object>([this.root]);
  private version = 0;
  /** Changed paths in version order; `logStart` is the version of the first entry kept. */
  private log: { version: number; path: Path }[] = [];
  private logStart = 0;
  /** The log's length at which it is next trimmed to what the readers have not read yet. */
  private trimAt = TRIM_EVERY;
  /** The readers of deltas (a websocket each): the log keeps only the changes they have not read. */
  private readonly readers = new Set<DeltaReader>();

  constructor(private readonly maxLog = 200_000) {}

  get snapshot(): Record<string, unknown> {
    return this.root;
  }

  get currentVersion(): number {
    return this.version;
  }

  /** How many changes the log holds (each a path): bounded by what the readers have not read. */
  get loggedChanges(): number {
    return this.log.length;
  }

  /**
   * Registers a reader whose `version` (undefined until its first full read) is how far it has
   * read: the log keeps the changes after it. Without readers the log keeps nearly nothing (it
   * grew by each second's stats, up to 200,000 paths, with no console open). Returns the way to
   * unregister it.
   */
  track(reader: DeltaReader): () => void {
    this.readers.add(reader);
    return () => this.readers.delete(reader);
  }

  /** Sets (or with undefined, removes) the value at `path`, logging the change if it differs. */
  set(path: Path, value: unknown): void {
    this.batch((write) => write(path, value));
  }

  /** Several set() calls as one copy-on-write pass (the engine writes each second's stats so). */
  setMany(entries: Iterable<readonly [Path, unknown]>): void {
    this.batch((write) => {
      for (const [path, value] of entries) write(path, value);
    });
  }

  /** Applies a delta as produced by diff(): each leaf down to `depth` levels becomes one logged path. */
  applyDiff(delta: unknown, depth = 3): void {
    this.batch((write) => {
      const walk = (value: unknown, path: string[]) => {
        // Below `depth` too where the delta deletes: the change is logged at the deleted key, whose
        // delta then says null. Logged at the merged object, the delta would carry what is left of
        // it, and a reader merging that (the console does) would keep the deleted key.
        if (isPlainObject(value) && (path.length < depth || deletesBelow(value))) {
          for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
          return;
        }
        // A leaf of the delta: null removes; an object here merges into an existing subtree.
        const current = getIn(this.root, path);
        if (value === null) write(path, undefined);
        else if (isPlainObject(value) && isPlainObject(current)) write(path, mergeTree(current, value));
        else write(path, value);
      };
      walk(delta, []);
    });
  }

  /**
   * Runs several writes in one pass. Objects the view made itself (its containers) are changed in
   * place: nobody else holds them — readers serialise the snapshot at once, and deltas are built
   * from the change log — so an edit of one stream among 20,000 copies nothing. Objects that came
   * in as values (shared with the config) are copied before anything is written into them.
   */
  private batch(body: (write: (path: Path, value: unknown) => void) => void): void {
    const owned = this.owned;
    const write = (path: Path, value: unknown) => {
      if (path.length === 0) return;
      if (getIn(this.root, path) === value && (value !== undefined || !hasPath(this.root, path))) return;
      let node: Record<string, unknown> = this.root;
      for (let i = 0; i < path.length - 1; i++) {
        const key = path[i]!;
        const child = node[key];
        if (value === undefined && !isPlainObject(child)) return;
        let next: Record<string, unknown>;
        if (isPlainObject(child) && owned.has(child)) next = child;
        else {
          next = isPlainObject(child) ? { ...child } : {};
          owned.add(next);
          node[key] = next;
        }
        node = next;
      }
      const last = path[path.length - 1]!;
      if (value === undefined) delete node[last];
      else node[last] = value;
      this.record(path);
    };
    body(write);
  }

  /**
   * The delta from `version` to now, holding at most `limit` paths; `complete` is false when more
   * remain (the caller answers partial_update and is asked again at once). Returns null when the
   * log no longer reaches back that far: the caller must send the whole view.
   */
  deltaSince(
    version: number,
    limit = 20_000,
  ): { delta: Record<string, unknown>; version: number; complete: boolean } | null {
    if (version < this.logStart) return null;
    const start = lowerBound(this.log, version + 1);
    const paths: Path[] = [];
    let upTo = version;
    let i = start;
    for (; i < this.log.length && paths.length < limit; i++) {
      const entry = this.log[i]!;
      paths.push(entry.path);
      upTo = entry.version;
    }
    const complete = i >= this.log.length;
    if (complete) upTo = this.version;
    const delta: Record<string, unknown> = {};
    for (const path of paths) this.putCurrent(delta, path);
    return { delta, version: upTo, complete };
  }

  /** Copies the current value at `path` into `delta` (null where it, or an ancestor, no longer exists). */
  private putCurrent(delta: Record<string, unknown>, path: Path): void {
    let node: unknown = this.root;
    let out = delta;
    for (let i = 0; i < path.length; i++) {
      const key = path[i]!;
      node = isPlainObject(node) ? node[key] : undefined;
      if (node === undefined) {
        out[key] = null;
        return;
      }
      if (i === path.length - 1) {
        out[key] = node;
        return;
      }
      const existing = out[key];
      // An ancestor already copied whole, or deleted, covers this path too.
      if (existing === null || (existing !== undefined && !isDeltaContainer(existing))) return;
      if (existing === undefined) out[key] = deltaContainer();
      out = out[key] as Record<string, unknown>;
    }
  }

  private record(path: Path): void {
    this.version++;
    this.log.push({ version: this.version, path });
    if (this.log.length >= this.trimAt) this.trimRead();
    if (this.log.length > this.maxLog) {
      const drop = this.log.length - Math.floor(this.maxLog / 2);
      this.log = this.log.slice(drop);
      this.logStart = this.log[0]!.version - 1;
    }
  }

  /** Drops the changes every reader has read (all of them without a reader: a new one reads in full). */
  private trimRead(): void {
    let oldest = this.version;
    for (const { version } of this.readers) if (version !== undefined && version < oldest) oldest = version;
    const drop = lowerBound(this.log, oldest + 1);
    if (drop > 0) {
      this.logStart = this.log[drop - 1]!.version;
      this.log = this.log.slice(drop);
    }
    this.trimAt = this.log.length + TRIM_EVERY;
  }
}

/** Trimmed each time this many changes were logged since: amortised, not on every write. */
const TRIM_EVERY = 1000;

export interface DeltaReader {
  readonly version: number | undefined;
}

const CONTAINER = Symbol('delta container');
function deltaContainer(): Record<string, unknown> {
  return Object.defineProperty({}, CONTAINER, { value: true, enumerable: false });
}
function isDeltaContainer(value: unknown): boolean {
  return isPlainObject(value) && (value as Record<symbol, unknown>)[CONTAINER] === true;
}

function lowerBound(log: { version: number }[], version: number): number {
  let lo = 0;
  let hi = log.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (log[mid]!.version < version) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function getIn(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of path) node = isPlainObject(node) ? node[key] : undefined;
  return node;
}

function hasPath(root: unknown, path: Path): boolean {
  let node = root;
  for (const key of path) {
    if (!isPlainObject(node) || !(key in node)) return false;
    node = node[key];
  }
  return true;
}

/** Whether a diff subtree removes anything (holds a null). */
function deletesBelow(delta: Record<string, unknown>): boolean {
  return Object.values(delta).some((v) => v === null || (isPlainObject(v) && deletesBelow(v)));
}

/** Merges a diff subtree into an existing object (nulls delete), sharing untouched branches. */
function mergeTree(base: Record<string, unknown>, delta: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [k, v] of Object.entries(delta)) {
    if (v === null) delete out[k];
    else if (isPlainObject(v) && isPlainObject(out[k]))
      out[k] = mergeTree(out[k] as Record<string, unknown>, v);
    else out[k] = v;
  }
  return out;
}
