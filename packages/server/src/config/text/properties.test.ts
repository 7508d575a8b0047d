import { config as configSchema, deepEqual, diskModes, drmVendors } from '@sluice/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBlock } from './codec/block.js';
import { topSpec } from './codec/specs.js';
import { treeOf } from './document.js';
import { parseConfigText, serializeConfig } from './index.js';
import type { Entry } from './tree.js';

type Obj = Record<string, unknown>;
const opt = { requiredKeys: [] as never[], noNullPrototype: true };
const rec = <T extends Record<string, fc.Arbitrary<unknown>>>(shape: T) => fc.record(shape, opt);

// Values: awkward strings on purpose (quotes, separators, number-like, the markers of special forms).
const awkward = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.constantFrom('', '12', '-0.5', 'true', 'false', 'json', '@x', '90%', '2d', 'k=v', 'a b', 'a;b{c}', '#c', '"q"', "it's", 'C:\\d', 'l1\nl2\t', '[a]', 'udp://[ff02::1]:1234'),
);
const text = fc.oneof(awkward.filter((s) => s !== ''), fc.stringMatching(/^[a-z]{1,6}:\/\/[a-z0-9.]{1,8}(:\d{1,5})?(\/[a-z0-9?=&]{0,8})?$/));
const num = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x)));
const seconds = fc.oneof(fc.nat(), fc.constantFrom(60, 5400, 86_400, 172_800), fc.double({ min: 0, max: 1e9, noNaN: true }));
const port = fc.integer({ min: 1, max: 65535 });
const name = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.~@:+-]{0,6}(\/[A-Za-z0-9_~@:+-]{1,4})?$/);
const scalar = fc.oneof(awkward, num, fc.boolean());
// Unknown keys, including names a directive owns elsewhere (they must be written quoted).
const unknownKey = fc.oneof(fc.constantFrom('x_future', 'two words', '', 'stream', 'source', 'a=b', '#k', 'json', 'true', '0'), fc.stringMatching(/^z_[a-z]{1,5}$/));
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof({ depthSize: 'small' }, scalar, fc.constant(null), fc.array(tie('json'), { maxLength: 3 }), fc.dictionary(unknownKey, tie('json'), { maxKeys: 3, noNullPrototype: true })),
}));
/** Adds keys this version does not know; `owned` are directive names of this block the schema does not declare. */
const loose = <T extends Obj>(known: fc.Arbitrary<T>, values: fc.Arbitrary<unknown> = json, owned: string[] = []) =>
  fc
    .tuple(known, fc.dictionary(owned.length > 0 ? fc.oneof(unknownKey, fc.constantFrom(...owned)) : unknownKey, values, { maxKeys: 2, noNullPrototype: true }))
    .map(([k, extra]) => ({ ...extra, ...k }));
const items = <T>(key: fc.Arbitrary<string>, item: fc.Arbitrary<T>) => fc.uniqueArray(fc.tuple(key, item), { maxLength: 3, selector: (t) => t[0] });
const keyed = (key: fc.Arbitrary<string>, item: fc.Arbitrary<Obj>, field: string) =>
  items(key, item).map((es) => Object.fromEntries(es.map(([k, v], i) => [k, { ...v, [field]: k, position: i }])));

const meta = loose(rec({ comment: awkward, drm_id: awkward, iptv: fc.boolean() }));
const auth = rec({ url: text, extra: fc.dictionary(awkward, scalar, { maxKeys: 2, noNullPrototype: true }), domains: fc.array(awkward, { maxLength: 3 }), allowed_countries: fc.array(fc.constantFrom('US', 'RU'), { maxLength: 2 }), max_sessions: fc.nat() });
const dvr = loose(rec({ root: text, reference: awkward, disk_limit: fc.integer({ min: 0, max: 100 }), disk_space: fc.nat(), dvr_limit: seconds, dvr_replicate: fc.boolean(), replication_port: port }), scalar);
const urlEntry = loose(fc.record({ url: text, priority: fc.integer(), source_timeout: seconds, user_agent: awkward, pids: awkward, tracks: awkward, allow_subtitles: fc.constantFrom('true', 'false'), rtp: fc.constant('udp') }, { requiredKeys: ['url'], noNullPrototype: true }), fc.oneof(scalar, scalar, json));
const media = {
  title: awkward,
  urls: fc.array(urlEntry, { maxLength: 3 }),
  static: fc.boolean(),
  meta,
  protocols: fc.dictionary(fc.constantFrom('hls', 'dash', 'rtmp'), fc.boolean(), { noNullPrototype: true }),
  password: awkward,
  source_timeout: seconds,
  pushes: fc.array(loose(fc.record({ url: text }, { noNullPrototype: true }), scalar), { maxLength: 2 }),
  prepush: fc.oneof(fc.constant(false as const), seconds),
  dvr,
  cache: rec({ path: awkward, disk_limit: fc.nat(), time_limit: seconds }),
  transcoder: rec({
    global: rec({ hw: fc.constantFrom('cpu', 'nvenc'), deviceid: fc.integer(), external: fc.boolean() }),
    decoder: rec({ deinterlace: fc.oneof(fc.constantFrom('off', 'bob'), fc.boolean()), threads: fc.integer({ min: 1, max: 8 }) }),
    audio: fc.record({ bitrate: fc.oneof(fc.constant('copy'), fc.integer({ min: 1 })), codec: fc.constantFrom('aac', 'opus') }, { requiredKeys: ['bitrate'], noNullPrototype: true }),
    video: fc.dictionary(fc.constantFrom('0', '1'), fc.record({ bitrate: fc.integer({ min: 1 }), size: rec({ width: fc.nat(), height: fc.nat() }) }, { requiredKeys: ['bitrate'], noNullPrototype: true }), { noNullPrototype: true }),
  }),
  auth,
  drm: rec({ vendor: fc.constantFrom(...drmVendors), keyserver: awkward }),
};
const lists = rec({ ips: fc.array(awkward, { maxLength: 2 }), tokens: fc.array(awkward, { maxLength: 2 }), countries: fc.array(awkward, { maxLength: 1 }), uas: fc.array(awkward, { maxLength: 1 }) });
const hhmm = fc.integer({ min: 0, max: 2359 });

export const configArb: fc.Arbitrary<Obj> = loose(
  rec({
    http: fc.array(port, { maxLength: 3 }),
    rtmp: port,
    loglevel: fc.constantFrom('debug', 'notice', 'error'),
    cluster_key: awkward,
    hostname: awkward,
    edit_auth: loose(fc.record({ login: text, password: text }, { noNullPrototype: true }), scalar),
    meta,
    nvidia_monitor: fc.boolean(),
    total_bandwidth: fc.oneof(fc.nat(), fc.constant(100 * 1024 * 1024)),
    streams: keyed(name, loose(rec(media), json, ['url', 'push']), 'name'),
    lives: keyed(name, loose(rec({ urls: media.urls, dvr, except: fc.array(awkward, { maxLength: 2 }), clients_timeout: seconds, thumbnails: rec({ enabled: fc.boolean() }) })), 'prefix'),
    sources: fc.array(loose(rec({ urls: fc.array(text, { maxLength: 2 }), cluster_key: awkward, only: fc.array(awkward, { maxLength: 2 }), dvr, title: awkward })), { maxLength: 3 }).map((ms) => Object.fromEntries(ms.map((m, i) => [String(i), { ...m, position: i }]))),
    vods: keyed(name, loose(rec({ urls: fc.array(loose(fc.record({ url: text }, { noNullPrototype: true }), scalar), { maxLength: 2 }), download: fc.boolean(), read_queue: fc.nat() }), json, ['path']), 'prefix'),
    dvrs: keyed(name, loose(rec({ root: text, raid: fc.nat(), active: fc.integer({ min: 1, max: 4 }), schedule: fc.array(fc.tuple(hhmm, hhmm), { maxLength: 2 }), disks: items(awkward, rec({ mode: fc.constantFrom(...diskModes) })).map((ds) => Object.fromEntries(ds.map(([k, d], i) => [k, { ...d, position: i }]))), dvr_limit: seconds, disk_limit: fc.integer({ min: 0, max: 100 }) }), json, ['disk']), 'name'),
    auth_backends: keyed(name, rec({ allow_default: fc.boolean(), allow: lists, deny: lists, backends: fc.array(fc.record({ url: text }, { noNullPrototype: true }), { maxLength: 2 }) }), 'name'),
    peers: keyed(awkward.filter((s) => s !== ''), rec({ port }), 'name'),
    plugins: loose(rec({ iptv: rec({ database: awkward }), vsaas: rec({ database: awkward, endpoint: awkward }) }), rec({ database: awkward })),
    web_scripts: keyed(awkward.filter((s) => s !== ''), rec({ path: text, extra: fc.dictionary(awkward, awkward, { maxKeys: 2, noNullPrototype: true }) }), 'prefix'),
  }),
  json,
  ['dvr', 'plugin', 'peer'],
).filter((c) => !['stats'].some((k) => k in c));

describe('round trip of generated configs', () => {
  it('generates configs the schema accepts', () => {
    fc.assert(
      fc.property(configArb, (c) => {
        expect(configSchema.safeParse(c).error).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('parse(serialize(C)) gives C back', () => {
    fc.assert(
      fc.property(configArb, (c) => {
        const text = serializeConfig(c);
        expect(parseConfigText(text).config).toEqual(c);
      }),
      { numRuns: 300 },
    );
  });
});

/** Puts an own-line comment before every line and a trailing comment after it. */
function commented(text: string): string {
  let n = 0;
  // Split on \n only: the printer escapes \n in strings, but U+2028 and the like stay inside them.
  const lines = text.split('\n').map((line) => {
    const indent = /^ */.exec(line)?.[0] ?? '';
    return line === '' ? line : `${indent}# c${n++}\n${line} # t${n++}`;
  });
  return lines.join('\n');
}

type Edit = { op: 'delete' | 'title' | 'unknown' | 'move'; index: number; value: string } | { op: 'add'; index: number; value: string } | { op: 'global'; index: number; value: string };
const editArb: fc.Arbitrary<Edit[]> = fc.array(
  fc.record({ op: fc.constantFrom('delete', 'title', 'unknown', 'move', 'add', 'global'), index: fc.nat(5), value: fc.stringMatching(/^[a-z]{1,6}$/) }, { noNullPrototype: true }) as fc.Arbitrary<Edit>,
  { minLength: 1, maxLength: 4 },
);

/** Applies edits to the streams (and one global), returning the new config and the keys whose items changed. */
function applyEdits(config: Obj, edits: Edit[]): { next: Obj; touched: Map<string, Set<string> | 'all'> } {
  const streams = Object.entries((config.streams ?? {}) as Record<string, Obj>);
  const touched = new Map<string, Set<string> | 'all'>();
  const touch = (key: string, field: string) => {
    const set = touched.get(key);
    if (set !== 'all') touched.set(key, (set ?? new Set()).add(field));
  };
  const next: Obj = { ...config };
  for (const edit of edits) {
    const at = streams.length > 0 ? edit.index % streams.length : -1;
    const entry = streams[at];
    if (edit.op === 'global') next.rtmp = 1000 + edit.value.length;
    else if (edit.op === 'add') {
      const key = `new_${edit.value}`;
      if (streams.some(([k]) => k === key)) continue;
      streams.splice(Math.min(edit.index, streams.length), 0, [key, { name: key, urls: [{ url: `udp://${edit.value}` }] }]);
      touched.set(key, 'all');
    } else if (!entry) continue;
    else if (edit.op === 'delete') streams.splice(at, 1);
    else if (edit.op === 'move') streams.push(...streams.splice(at, 1));
    else if (edit.op === 'title') {
      entry[1] = { ...entry[1], title: edit.value };
      touch(entry[0], 'title');
    } else {
      entry[1] = { ...entry[1], z_edit: edit.value };
      touch(entry[0], 'z_edit');
    }
  }
  next.streams = Object.fromEntries(streams.map(([k, v], i) => [k, { ...v, position: i }]));
  return { next, touched };
}

const verbatim = (e: Entry) => e.leading.slice(e.leading.lastIndexOf('\n\n') + 2) + e.raw + e.trailing;

describe('random edits over a commented file', () => {
  it('keep every comment and the exact text of every unchanged directive', () => {
    fc.assert(
      fc.property(configArb, editArb, (config, edits) => {
        const { document } = parseConfigText(commented(serializeConfig(config)));
        const { next, touched } = applyEdits(config, edits);
        const out = serializeConfig(next, document);
        expect(parseConfigText(out).config).toEqual(next);

        const entries = treeOf(document).entries;
        const anns = decodeBlock(topSpec(), entries).anns;
        const nextStreams = next.streams as Record<string, Obj>;
        entries.forEach((entry, i) => {
          const { group: g, key } = anns[i] ?? { group: '' };
          const group = g.replace(/^generic:/, '');
          if (group === 'stream' && key !== undefined) {
            const change = touched.get(key);
            if (!nextStreams[key]) return; // deleted: its comments go with it
            if (!change) expect(out).toContain(verbatim(entry));
            else if (change !== 'all') {
              // A changed stream keeps its own comments and its other lines as they were.
              expect(out).toContain(entry.leading.slice(entry.leading.lastIndexOf('\n\n') + 2) + entry.block?.header);
              for (const child of entry.directive.children ?? []) if (!change.has(child.directive.name)) expect(out).toContain(verbatim(child));
            }
          } else if ((!Object.hasOwn(config, group) && !Object.hasOwn(next, group)) || deepEqual(config[group], next[group])) {
            expect(out).toContain(verbatim(entry));
          }
        });
      }),
      { numRuns: 200 },
    );
  });
});
