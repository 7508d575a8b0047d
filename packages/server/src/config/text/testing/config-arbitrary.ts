import { diskModes, drmVendors } from '@sluice/api';
import fc from 'fast-check';

/**
 * A hand-written fast-check arbitrary of configs valid for the api schema `config`, for the
 * property tests of the text format: every section, nested blocks, keys the schema does not know
 * (some named like directives), awkward strings (quotes, separators, number-like text, the markers
 * of special forms), numbers of every kind, units. Positions and key fields are in normal form, as
 * parseConfigText returns them. Test support only: nothing in the server imports it.
 */
export type Obj = Record<string, unknown>;
const opt = { requiredKeys: [] as never[], noNullPrototype: true };
const rec = <T extends Record<string, fc.Arbitrary<unknown>>>(shape: T) => fc.record(shape, opt);

// Values: awkward strings on purpose (quotes, separators, number-like, the markers of special forms).
const awkward = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.constantFrom(
    '',
    '12',
    '-0.5',
    'true',
    'false',
    'json',
    '@x',
    '90%',
    '2d',
    'k=v',
    'a b',
    'a;b{c}',
    '#c',
    '"q"',
    "it's",
    'C:\\d',
    'l1\nl2\t',
    '[a]',
    'udp://[ff02::1]:1234',
  ),
);
const text = fc.oneof(
  awkward.filter((s) => s !== ''),
  fc.stringMatching(/^[a-z]{1,6}:\/\/[a-z0-9.]{1,8}(:\d{1,5})?(\/[a-z0-9?=&]{0,8})?$/),
);
const num = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x)),
);
const seconds = fc.oneof(
  fc.nat(),
  fc.constantFrom(60, 5400, 86_400, 172_800),
  fc.double({ min: 0, max: 1e9, noNaN: true }),
);
const port = fc.integer({ min: 1, max: 65535 });
const name = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.~@:+-]{0,6}(\/[A-Za-z0-9_~@:+-]{1,4})?$/);
const scalar = fc.oneof(awkward, num, fc.boolean());
// Unknown keys, including names a directive owns elsewhere (they must be written quoted).
const unknownKey = fc.oneof(
  fc.constantFrom('x_future', 'two words', '', 'stream', 'source', 'a=b', '#k', 'json', 'true', '0'),
  fc.stringMatching(/^z_[a-z]{1,5}$/),
);
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.constant(null),
    fc.array(tie('json'), { maxLength: 3 }),
    fc.dictionary(unknownKey, tie('json'), { maxKeys: 3, noNullPrototype: true }),
  ),
}));
/** Adds keys this version does not know; `owned` are directive names of this block the schema does not declare. */
const loose = <T extends Obj>(
  known: fc.Arbitrary<T>,
  values: fc.Arbitrary<unknown> = json,
  owned: string[] = [],
) =>
  fc
    .tuple(
      known,
      fc.dictionary(owned.length > 0 ? fc.oneof(unknownKey, fc.constantFrom(...owned)) : unknownKey, values, {
        maxKeys: 2,
        noNullPrototype: true,
      }),
    )
    .map(([k, extra]) => ({ ...extra, ...k }));
const items = <T>(key: fc.Arbitrary<string>, item: fc.Arbitrary<T>) =>
  fc.uniqueArray(fc.tuple(key, item), { maxLength: 3, selector: (t) => t[0] });
const keyed = (key: fc.Arbitrary<string>, item: fc.Arbitrary<Obj>, field: string) =>
  items(key, item).map((es) =>
    Object.fromEntries(es.map(([k, v], i) => [k, { ...v, [field]: k, position: i }])),
  );

const meta = loose(rec({ comment: awkward, drm_id: awkward, iptv: fc.boolean() }));
const auth = rec({
  url: text,
  extra: fc.dictionary(awkward, scalar, { maxKeys: 2, noNullPrototype: true }),
  domains: fc.array(awkward, { maxLength: 3 }),
  allowed_countries: fc.array(fc.constantFrom('US', 'RU'), { maxLength: 2 }),
  max_sessions: fc.nat(),
});
const dvr = loose(
  rec({
    root: text,
    reference: awkward,
    disk_limit: fc.integer({ min: 0, max: 100 }),
    disk_space: fc.nat(),
    dvr_limit: seconds,
    dvr_replicate: fc.boolean(),
    replication_port: port,
  }),
  scalar,
);
const urlEntry = loose(
  fc.record(
    {
      url: text,
      priority: fc.integer(),
      source_timeout: seconds,
      // The schema refuses control characters in a user agent (they would split ffmpeg's request header).
      // eslint-disable-next-line no-control-regex -- control characters are what the schema refuses
      user_agent: awkward.filter((s) => !/[\u0000-\u001f\u007f]/.test(s)),
      pids: awkward,
      tracks: awkward,
      allow_subtitles: fc.constantFrom('true', 'false'),
      rtp: fc.constant('udp'),
    },
    { requiredKeys: ['url'], noNullPrototype: true },
  ),
  fc.oneof(scalar, scalar, json),
);
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
    decoder: rec({
      deinterlace: fc.oneof(fc.constantFrom('off', 'bob'), fc.boolean()),
      threads: fc.integer({ min: 1, max: 8 }),
    }),
    audio: fc.record(
      {
        bitrate: fc.oneof(fc.constant('copy'), fc.integer({ min: 1 })),
        codec: fc.constantFrom('aac', 'opus'),
      },
      { requiredKeys: ['bitrate'], noNullPrototype: true },
    ),
    video: fc.dictionary(
      fc.constantFrom('0', '1'),
      fc.record(
        { bitrate: fc.integer({ min: 1 }), size: rec({ width: fc.nat(), height: fc.nat() }) },
        { requiredKeys: ['bitrate'], noNullPrototype: true },
      ),
      { noNullPrototype: true },
    ),
  }),
  auth,
  drm: rec({ vendor: fc.constantFrom(...drmVendors), keyserver: awkward }),
};
const lists = rec({
  ips: fc.array(awkward, { maxLength: 2 }),
  tokens: fc.array(awkward, { maxLength: 2 }),
  countries: fc.array(awkward, { maxLength: 1 }),
  uas: fc.array(awkward, { maxLength: 1 }),
});
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
    lives: keyed(
      name,
      loose(
        rec({
          urls: media.urls,
          dvr,
          except: fc.array(awkward, { maxLength: 2 }),
          clients_timeout: seconds,
          thumbnails: rec({ enabled: fc.boolean() }),
        }),
      ),
      'prefix',
    ),
    sources: fc
      .array(
        loose(
          rec({
            urls: fc.array(text, { maxLength: 2 }),
            cluster_key: awkward,
            only: fc.array(awkward, { maxLength: 2 }),
            dvr,
            title: awkward,
          }),
        ),
        { maxLength: 3 },
      )
      .map((ms) => Object.fromEntries(ms.map((m, i) => [String(i), { ...m, position: i }]))),
    vods: keyed(
      name,
      loose(
        rec({
          urls: fc.array(loose(fc.record({ url: text }, { noNullPrototype: true }), scalar), {
            maxLength: 2,
          }),
          download: fc.boolean(),
          read_queue: fc.nat(),
        }),
        json,
        ['path'],
      ),
      'prefix',
    ),
    dvrs: keyed(
      name,
      loose(
        rec({
          root: text,
          raid: fc.nat(),
          active: fc.integer({ min: 1, max: 4 }),
          schedule: fc.array(fc.tuple(hhmm, hhmm), { maxLength: 2 }),
          disks: items(awkward, rec({ mode: fc.constantFrom(...diskModes) })).map((ds) =>
            Object.fromEntries(ds.map(([k, d], i) => [k, { ...d, position: i }])),
          ),
          dvr_limit: seconds,
          disk_limit: fc.integer({ min: 0, max: 100 }),
        }),
        json,
        ['disk'],
      ),
      'name',
    ),
    auth_backends: keyed(
      name,
      rec({
        allow_default: fc.boolean(),
        allow: lists,
        deny: lists,
        backends: fc.array(fc.record({ url: text }, { noNullPrototype: true }), { maxLength: 2 }),
      }),
      'name',
    ),
    peers: keyed(
      awkward.filter((s) => s !== ''),
      rec({ port }),
      'name',
    ),
    plugins: loose(
      rec({ iptv: rec({ database: awkward }), vsaas: rec({ database: awkward, endpoint: awkward }) }),
      rec({ database: awkward }),
    ),
    web_scripts: keyed(
      awkward.filter((s) => s !== ''),
      rec({ path: text, extra: fc.dictionary(awkward, awkward, { maxKeys: 2, noNullPrototype: true }) }),
      'prefix',
    ),
  }),
  json,
  ['dvr', 'plugin', 'peer'],
).filter((c) => !['stats'].some((k) => k in c));
