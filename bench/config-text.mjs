// The config text format alone, at 20,000 streams (the file bench/config.mjs writes): full parse,
// full serialize, and the merge of a one-item edit over the previous document, beside
// JSON.parse/JSON.stringify of the same config measured in the same run. Then the config store's
// modify() with no listeners (the server's engine and live views are not part of it), beside a
// bare durable write of the same file.
import { mkdtemp, open, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigStore } from '../packages/server/dist/config/store.js';
import * as text from '../packages/server/dist/config/text/index.js';

const STREAMS = 20_000;
const RUNS = Number(process.argv[2] ?? 7);

let source = `# bench config\nhttp 8080;\nedit_auth admin bench-pw;\n`;
for (let i = 0; i < STREAMS; i++) {
  source += `\n# camera ${i}\nstream cam${i} {\n  url udp://239.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:1234;\n  title "Camera ${i}";\n}\n`;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Median time of `fn(input)`, with `setup()` making each input outside the timing. */
const measure = async (fn, setup = () => undefined, runs = RUNS) => {
  await fn(setup()); // warm-up: the first run compiles and fills the schema caches
  const times = [];
  for (let i = 0; i < runs; i++) {
    const input = setup();
    const t = performance.now();
    await fn(input);
    times.push(performance.now() - t);
  }
  return median(times);
};

const { config, document } = text.parseConfigText(source);
const json = JSON.stringify(config);

/** The config after one edit, sharing every untouched item with `base` (as applyDelta does). */
let round = 0;
const oneEdit = (base) => {
  const name = `cam${(round * 7919) % STREAMS}`;
  round++;
  return { ...base, streams: { ...base.streams, [name]: { ...base.streams[name], title: `T${round}` } } };
};
// The new API returns the next document with the text; before it, the store parsed the text again.
const mergeWithDocument =
  text.serializeConfigWithDocument ??
  ((next, previous) => {
    const out = text.serializeConfig(next, previous);
    return { text: out, document: text.parseConfigText(out).document };
  });
// A chain of edits, as the store makes them: each merges over the document the last one returned.
let current = mergeWithDocument(config, document);
let currentConfig = config;
const chained = () => {
  currentConfig = oneEdit(currentConfig);
  return currentConfig;
};

// Cheap steps are timed over more runs: the machine is shared and a garbage collection of the
// setup's leftovers can land in any one of them.
const many = RUNS * 3;
const figures = [
  [
    'parse',
    await measure(() => text.parseConfigText(source)),
    'JSON.parse',
    await measure(() => JSON.parse(json)),
  ],
  [
    'full serialize',
    await measure(() => text.serializeConfig(config)),
    'JSON.stringify',
    await measure(() => JSON.stringify(config)),
  ],
  [
    'one-item merge, with next document',
    await measure((next) => (current = mergeWithDocument(next, current.document)), chained, many),
    'JSON.stringify',
    await measure(() => JSON.stringify(config)),
  ],
  [
    'one-item merge, no item shared (first edit after load)',
    await measure(
      (next) => mergeWithDocument(next, document),
      () => oneEdit(structuredClone(config)),
    ),
    'JSON.stringify',
    await measure(() => JSON.stringify(config)),
  ],
];

const dir = await mkdtemp(join(tmpdir(), 'sluice-bench-'));
await writeFile(join(dir, 'sluice.conf'), source);
const store = new ConfigStore(join(dir, 'sluice.conf'), join(dir, 'history'));
await store.load();
let edit = 0;
const modify = () =>
  store.modify({ streams: { [`cam${(edit++ * 7919) % STREAMS}`]: { title: `E${edit}` } } });
const bareWrite = async () => {
  const f = await open(join(dir, 'ref.tmp'), 'w');
  await f.writeFile(source);
  await f.sync();
  await f.close();
  await rename(join(dir, 'ref.tmp'), join(dir, 'ref.conf'));
  const d = await open(dir, 'r');
  await d.sync();
  await d.close();
};
figures.push([
  'store modify, one stream (no listeners; with fsync)',
  await measure(modify, undefined, many),
  'bare durable write',
  await measure(bareWrite, undefined, many),
]);
await rm(dir, { recursive: true, force: true });

const fmt = (ms) => `${ms.toFixed(1).padStart(7)} ms`;
console.log(`config text: ${STREAMS} streams, ${(source.length / 1024).toFixed(1)} KiB; median of ${RUNS}`);
for (const [name, ms, refName, refMs] of figures)
  console.log(`${name.padEnd(56)} ${fmt(ms)}   reference ${refName} ${fmt(refMs)}`);
