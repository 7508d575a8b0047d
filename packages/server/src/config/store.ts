import { createHash } from 'node:crypto';
import { readdir, readFile, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  applyDelta,
  type Config,
  config as configSchema,
  diff,
  formatIssues,
  isPlainObject,
} from '@sluice/api';
import { ConfigRejected, ConfigStale } from './errors.js';
import { refuseEmptyText, refuseLockout } from './lockout.js';
import { refuseDvrRootClash } from './dvr-roots.js';
import { refuseWebScriptClash } from '../web-scripts/web-script-config.js';
import { refuseBadAdSchedules } from '../ads/schedule-config.js';
import { refuseUnreachableIptv } from '../iptv/iptv-plugin.js';
import { writeFileDurably } from './durable-write.js';
import { InPlaceEdits } from './in-place.js';
import { ConfigHistory } from './history.js';
import { RevisionLog, scopeOfDelta } from './revision-log.js';
import { normalizeConfig, normalizeTracked, touchedPositions } from './normalize.js';
import {
  ConfigSyntaxError,
  type ConfigDocument,
  locatePath,
  parseConfigText,
  revisionOf,
  serializeConfigWithDocument,
} from './text/index.js';

/**
 * What an edit touched: top-level keys, each with the item keys it changed where those are known
 * (an edit that adds, removes and moves nothing), or 'all'. Undefined: anything may have changed.
 */
export type ChangeScope = Map<string, readonly string[] | 'all'>;

/**
 * `previous`: the config before the change. A section whose items an edit changed in place (see
 * config/in-place.ts) holds there only the items `scope` names, as they were: read it through scope.
 */
export type ConfigListener = (next: Config, previous: Config, scope: ChangeScope | undefined) => void;

/** diff(previous, next) looking only where `scope` says the edit went: O(change), not O(config). */
export function scopedDiff(previous: Config, next: Config, scope: ChangeScope | undefined): unknown {
  if (!scope) return diff(previous, next);
  const out: Record<string, unknown> = {};
  const p = previous as Record<string, unknown>;
  const n = next as Record<string, unknown>;
  for (const [key, items] of scope) {
    if (n[key] === undefined) {
      if (p[key] !== undefined) out[key] = null;
      continue;
    }
    if (items === 'all' || !isPlainObject(p[key]) || !isPlainObject(n[key])) {
      const d = diff(p[key], n[key]);
      // A plain object that is new here must not be merged into what was there (as diff does inside).
      if (d !== undefined) out[key] = isPlainObject(n[key]) && !isPlainObject(p[key]) ? n[key] : d;
      continue;
    }
    const before = p[key] as Record<string, unknown>;
    const after = n[key] as Record<string, unknown>;
    const section: Record<string, unknown> = {};
    for (const item of items) {
      if (after[item] === undefined) {
        if (before[item] !== undefined) section[item] = null;
        continue;
      }
      const d = diff(before[item], after[item]);
      if (d !== undefined) section[item] = d;
    }
    if (Object.keys(section).length > 0) out[key] = section;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

const keyedSections = new Set([
  'streams',
  'lives',
  'sources',
  'vods',
  'dvrs',
  'auth_backends',
  'peers',
  'web_scripts',
]);

/** Top-level key that marks a modify_config body as a whole-config import (spec 000 §4 Upload config). */
export const RESET_MARKER = 'reset';

/** Top-level key of the live view (read_config, the events socket) holding the config's revision. */
export const CONFIG_REVISION_KEY = 'config_revision';

/**
 * The config file is the source of truth. Every change is validated, applied to a copy, validated
 * whole, written durably and only then swapped in and announced; a failed step changes nothing.
 * Changes run one at a time in arrival order, so none is lost.
 */
export class ConfigStore {
  private current: Config = {};
  private text = '';
  /** The revision of `text`, computed when first asked for. */
  private textRevision: string | undefined;
  private document: ConfigDocument | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<ConfigListener>();
  private readonly history: ConfigHistory;
  /** What each recent commit touched: a save based on an older revision is checked against it. */
  private readonly revisions = new RevisionLog();

  constructor(
    readonly path: string,
    historyDir: string,
  ) {
    this.history = new ConfigHistory(historyDir, path);
  }

  /** Reads and validates the file; throws ConfigRejected naming the line and column of a syntax error. */
  async load(): Promise<Config> {
    await removeLeftoverTempFiles(this.path);
    const text = await readFile(this.path, 'utf8');
    const { config, document } = this.parse(text);
    this.current = config;
    this.text = text;
    this.textRevision = undefined;
    this.document = document;
    return config;
  }

  get config(): Config {
    return this.current;
  }

  get rawText(): string {
    return this.text;
  }

  /**
   * The revision of the config file as last written or read: a hash of its text, so it names the
   * same text across restarts (a counter would start again and match a different text).
   * read_raw_config answers it as the ETag; save_raw_config's If-Match is compared with it.
   * Hashed page by page over the document (text/revision.ts): an edit rehashes only what it changed.
   */
  get revision(): string {
    this.textRevision ??= this.document
      ? revisionOf(this.document)
      : createHash('sha256').update(this.text).digest('base64url').slice(0, 22);
    return this.textRevision;
  }

  onChange(listener: ConfigListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Parses and validates text without saving anything (parse_raw_config). */
  parse(text: string): { config: Config; document: ConfigDocument } {
    let parsed;
    try {
      parsed = parseConfigText(text);
    } catch (error) {
      if (error instanceof ConfigSyntaxError)
        throw new ConfigRejected(error.message, error.line, error.column);
      throw error;
    }
    const candidate = normalizeConfig(parsed.config as Config, {});
    const result = configSchema.safeParse(candidate);
    if (!result.success) {
      // The schema checks the JSON, not the text: point at the line of the first offending item.
      const at = locatePath(parsed.document, result.error.issues[0]?.path ?? []);
      throw new ConfigRejected(formatIssues(result.error), at?.line, at?.column);
    }
    return { config: result.data, document: parsed.document };
  }

  /**
   * modify_config: applies a delta (spec 000 §7), or replaces the whole config when it carries the
   * reset marker. With `basedOn` (If-Match: the revisions the caller's edit started from), refused
   * with ConfigStale when a change since then touched an item or key this delta touches (a reset:
   * any change); changes elsewhere are kept by the delta, so they don't refuse it.
   */
  modify(delta: unknown, basedOn?: readonly string[]): Promise<Config> {
    return this.serialised(async () => {
      if (!isPlainObject(delta))
        throw new ConfigRejected('the body must be a JSON object holding a config delta');
      const { [RESET_MARKER]: reset, ...rest } = delta;
      if (reset !== undefined && reset !== true)
        throw new ConfigRejected(`"${RESET_MARKER}" may only be true`);
      const cleaned = stripStats(rest) as Record<string, unknown>;
      const base = reset === true ? {} : this.current;
      const withMirrors = createMirrors(base, cleaned);
      const touched = reset === true ? undefined : scopeOfDelta(withMirrors);
      if (basedOn && basedOn.every((r) => this.revisions.conflicts(r, this.revision, touched)))
        throw new ConfigStale(this.revision, basedOn[0] ?? '', 'read the config again');
      // Field edits of existing items go into the live sections (no copy of a 20,000-key map),
      // undone if any check refuses them and before the write is awaited.
      const inPlace = reset === true ? undefined : new InPlaceEdits(base, withMirrors, keyedSections);
      const merged = applyDelta(base, inPlace?.rest ?? withMirrors);
      inPlace?.apply(withMirrors);
      const before = inPlace?.previousOf(base) ?? base;
      let valid: Config;
      let scope: ChangeScope | undefined;
      try {
        const normalized = normalizeTracked(merged, touchedPositions(withMirrors), before, withMirrors);
        valid = this.validateChanged(normalized.config, before, normalized.edited);
        if (reset === true && !valid.edit_auth) {
          throw new ConfigRejected('an imported config must keep edit_auth, or nobody could log in again');
        }
        refuseLockout(valid);
        if ('dvrs' in cleaned) refuseDvrRootClash(valid);
        if ('web_scripts' in cleaned) refuseWebScriptClash(valid);
        if ('ad_schedules' in cleaned) refuseBadAdSchedules(valid);
        // Enabling IPTV opens (creates) its database first: a path that can't be used changes nothing.
        const iptvProblem =
          'plugins' in cleaned ? refuseUnreachableIptv(valid, before, this.path) : undefined;
        if (iptvProblem) throw new ConfigRejected(iptvProblem);
        scope =
          reset === true
            ? undefined
            : new Map(Object.keys(withMirrors).map((key) => [key, normalized.edited.get(key) ?? 'all']));
      } catch (error) {
        inPlace?.undo();
        throw error;
      }
      // An import too is written over the file's document: the items it leaves as they were keep
      // their text and comments, and only what it changes is re-printed (the whole-file merge).
      return this.commit(valid, this.document, scope, touched, inPlace);
    });
  }

  /**
   * save_raw_config: the whole file as the operator wrote it, comments and all. With
   * `expectedRevision` (If-Match), refused with ConfigStale when the file changed since that revision
   * was read: checked in the queue, so no change can slip in between the check and the write.
   */
  saveRaw(text: string, expectedRevision?: readonly string[]): Promise<Config> {
    return this.serialised(async () => {
      if (expectedRevision && !expectedRevision.includes(this.revision))
        throw new ConfigStale(this.revision, expectedRevision[0] ?? '');
      refuseEmptyText(text);
      const { config, document } = this.parse(text);
      refuseLockout(config);
      // Only a change of web_scripts: a stream added later over a prefix is served first (web-scripts/).
      if (JSON.stringify(config.web_scripts) !== JSON.stringify(this.config.web_scripts))
        refuseWebScriptClash(config);
      if (JSON.stringify(config.ad_schedules) !== JSON.stringify(this.config.ad_schedules))
        refuseBadAdSchedules(config);
      await this.write(text);
      this.swap(config, text, document);
      return config;
    });
  }

  private validate(candidate: Config): Config {
    const result = configSchema.safeParse(candidate);
    if (!result.success) throw new ConfigRejected(formatIssues(result.error));
    return result.data;
  }

  /**
   * Validates `next` whole, but re-checks only the items that differ from `previous` (already valid):
   * items are independent in the schema, so this equals a full check at a cost that follows the
   * size of the change, not of the config. The checked items go back into `next`'s sections in
   * place, which keeps their order without copying tens of thousands of items: a section that is
   * not the previous one is a new object made for this edit (by applyDelta or normalizeConfig),
   * which nothing else holds, or the live section an in-place edit writes into (put back before
   * anything else can read it).
   */
  private validateChanged(next: Config, previous: Config, edited: Map<string, string[]> = new Map()): Config {
    const projection: Record<string, unknown> = {};
    const sections: { key: string; items: Record<string, unknown>; changed: string[] }[] = [];
    for (const [key, value] of Object.entries(next)) {
      const before = (previous as Record<string, unknown>)[key];
      if (!keyedSections.has(key) || !isPlainObject(value) || !isPlainObject(before)) {
        projection[key] = value;
        continue;
      }
      const changed: Record<string, unknown> = {};
      const names: string[] = [];
      // Where normalizeTracked knows the only keys that can differ, look at those, not at every item.
      for (const name of value === before ? [] : (edited.get(key) ?? Object.keys(value))) {
        const item = value[name];
        if (before[name] === item) continue;
        changed[name] = item;
        names.push(name);
      }
      projection[key] = changed;
      sections.push({ key, items: value, changed: names });
    }
    const valid = this.validate(projection as Config) as Record<string, unknown>;
    for (const { key, items, changed } of sections) {
      const checked = valid[key] as Record<string, unknown>;
      for (const name of changed) items[name] = checked[name];
      valid[key] = items;
    }
    return valid as Config;
  }

  private async commit(
    next: Config,
    previousDocument: ConfigDocument | undefined,
    scope: ChangeScope | undefined,
    touched: ChangeScope | undefined,
    inPlace?: InPlaceEdits,
  ): Promise<Config> {
    // The next edit merges against the document of the text just written, which the serializer
    // returns with it: the items of `next` it remembers are what lets that edit skip the rest.
    // Re-validating the text is not needed (`next` is valid, and the serializer checks that what
    // it re-printed reads back as `next`).
    let printed: ReturnType<typeof serializeConfigWithDocument>;
    // An edit made wholly in place changed only the items its scope names: only those are re-printed
    // and spliced into the text (config/text/splice.ts), the same text the whole merge writes.
    const spliced = inPlace && scope && Object.keys(inPlace.rest).length === 0 ? scope : undefined;
    try {
      printed = serializeConfigWithDocument(next as Record<string, unknown>, previousDocument, spliced);
    } finally {
      // Synchronous up to here: the live sections go back to the running config before anything
      // else can read them, and take the edit again only once the file holding it is on disk.
      inPlace?.undo();
    }
    const { text, document } = printed;
    await this.write(text);
    inPlace?.redo();
    this.swap(next, text, document, scope, touched, inPlace?.previousOf(this.current));
    return next;
  }

  private async write(text: string): Promise<void> {
    if (this.text) await this.history.keep(this.text);
    await writeFileDurably(this.path, text);
  }

  /**
   * `touched`: what the edit asked to change (for a later save's conflict check), without the
   * positions of other items a renumbering moved; undefined: anything.
   */
  private swap(
    next: Config,
    text: string,
    document: ConfigDocument,
    scope?: ChangeScope,
    touched?: ChangeScope,
    previousView?: Config,
  ): void {
    if (text !== this.text) this.revisions.record(this.revision, touched);
    const previous = previousView ?? this.current;
    this.current = next;
    this.text = text;
    this.textRevision = undefined;
    this.document = document;
    for (const listener of this.listeners) listener(next, previous, scope);
  }

  private serialised<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/**
 * `stats` and `now_ms` are runtime figures: a console that sends them back (a downloaded config
 * uploaded again) must not write them into the file.
 */
export function stripStats(value: unknown, depth = 0, section = ''): unknown {
  if (!isPlainObject(value) || depth > 3) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'stats' || (depth === 0 && (k === 'now_ms' || k === CONFIG_REVISION_KEY))) continue;
    // A location's published streams and a mirror's mirrored streams are runtime, like stats: a
    // downloaded config uploaded again must not write them into the file.
    if (depth === 2 && k === 'streams' && RUNTIME_STREAM_SECTIONS.has(section)) continue;
    out[k] = stripStats(v, depth + 1, depth === 0 ? k : section);
  }
  return out;
}
const RUNTIME_STREAM_SECTIONS = new Set(['lives', 'sources']);

/** `sources: {"-1": {…}}` creates a mirror at the next free position (spec 000 §7). */
export function createMirrors(base: Config, delta: Record<string, unknown>): Record<string, unknown> {
  const sources = delta.sources;
  if (!isPlainObject(sources) || !('-1' in sources)) return delta;
  const { '-1': created, ...others } = sources;
  const count = Object.keys(base.sources ?? {}).length;
  const next = isPlainObject(created) ? { ...created, position: count } : created;
  return { ...delta, sources: { ...others, [String(count)]: next } };
}

/** A crash between writing the temp file and renaming it leaves the temp file behind: remove it. */
async function removeLeftoverTempFiles(path: string): Promise<void> {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name.startsWith(prefix) && name.endsWith('.tmp'))
      await unlink(join(dir, name)).catch(() => undefined);
  }
}
