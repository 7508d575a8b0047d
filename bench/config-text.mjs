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
const measure = (fn) => {
  fn(); // warm-up: the first run compiles and fills the schema caches
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return median(times);
};

const { config, document } = text.parseConfigText(source);
const json = JSON.stringify(config);

/** The config after one edit, sharing every untouched item with `base` (as applyDelta does). */
const withTitle = (base, name, title) => ({
  ...base,
  streams: { ...base.streams, [name]: { ...base.streams[name], title } },
});
// The new API returns the next document with the text; before it, the store parsed the text again.
const mergeWithDocument =
  text.serializeConfigWithDocument ??
  ((next, previous) => {
    const out = text.serializeConfig(next, previous);
    return { text: out, document: text.parseConfigText(out).document };
  });

let round = 0;
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
    measure(() => mergeWithDocument(withTitle(config, `cam${round++ % STREAMS}`, `T${round}`), document)),
    'JSON.stringify',
    measure(() => JSON.stringify(config)),
  ],
  [
    'one-item merge, no shared items (first edit after load)',
    measure(() => mergeWithDocument(withTitle(structuredClone(config), 'cam7', `T${round++}`), document)),
    'structuredClone',
    measure(() => structuredClone(config)),
  ],
];

const fmt = (ms) => `${ms.toFixed(1).padStart(7)} ms`;
console.log(`config text: ${STREAMS} streams, ${(source.length / 1024).toFixed(1)} KiB; median of ${RUNS}`);
for (const [name, ms, refName, refMs] of figures)
  console.log(`${name.padEnd(56)} ${fmt(ms)}   reference ${refName} ${fmt(refMs)}`);
