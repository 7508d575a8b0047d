// The config text format alone, at 20,000 streams (the file bench/config.mjs writes): full parse,
// full serialize, and the merge of a one-item edit over the previous document, beside
// JSON.parse/JSON.stringify of the same config measured in the same run.
import * as text from '../packages/server/dist/config/text/index.js';

const STREAMS = 20_000;
const RUNS = Number(process.argv[2] ?? 7);

let source = `# bench config\nhttp 8080;\nedit_auth admin bench-pw;\n`;
for (let i = 0; i < STREAMS; i++) {
  source += `\n# camera ${i}\nstream cam${i} {\n  url udp://239.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:1234;\n  title "Camera ${i}";\n}\n`;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Median time of `fn(input)`, with `setup()` making each input outside the timing. */
const measure = (fn, setup = () => undefined) => {
  fn(setup()); // warm-up: the first run compiles and fills the schema caches
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const input = setup();
    const t = performance.now();
    fn(input);
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

const figures = [
  ['parse', measure(() => text.parseConfigText(source)), 'JSON.parse', measure(() => JSON.parse(json))],
  [
    'full serialize',
    measure(() => text.serializeConfig(config)),
    'JSON.stringify',
    measure(() => JSON.stringify(config)),
  ],
  [
    'one-item merge, with next document',
    measure((next) => (current = mergeWithDocument(next, current.document)), chained),
    'JSON.stringify',
    measure(() => JSON.stringify(config)),
  ],
  [
    'one-item merge, no item shared (first edit after load)',
    measure(
      (next) => mergeWithDocument(next, document),
      () => oneEdit(structuredClone(config)),
    ),
    'JSON.stringify',
    measure(() => JSON.stringify(config)),
  ],
];

const fmt = (ms) => `${ms.toFixed(1).padStart(7)} ms`;
console.log(`config text: ${STREAMS} streams, ${(source.length / 1024).toFixed(1)} KiB; median of ${RUNS}`);
for (const [name, ms, refName, refMs] of figures)
  console.log(`${name.padEnd(56)} ${fmt(ms)}   reference ${refName} ${fmt(refMs)}`);
