// Cluster: each part measures one side of the cluster beside a reference in the same run
// (bench/cluster/*.mjs, each `export async function run({ args })`):
//   poll-cost   what one peer poll costs at 20,000 streams per peer (CPU and bytes, full list and
//               unchanged list) beside GET read_config on the same server
//   redirect    a new viewer at Load > 100 %: 302 to the peer with the stream, time to its playlist
//               beside asking that peer directly
//   (and any other part present: failover…)
// Usage: npm run bench -- cluster [PART,PART…] [part arguments]
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), 'cluster');
const all = readdirSync(here)
  .filter((f) => f.endsWith('.mjs'))
  .map((f) => f.slice(0, -4))
  .sort();
const named = process.argv[2] && all.some((p) => process.argv[2].split(',').includes(p));
const wanted = named ? process.argv[2].split(',') : undefined;
const args = process.argv.slice(named ? 3 : 2);
const parts = all.filter((p) => !wanted || wanted.includes(p));
if (parts.length === 0) {
  console.error(`no cluster bench part named ${process.argv[2]} in ${here}`);
  process.exit(2);
}
for (const part of parts) {
  console.log(`\n## ${part}`);
  const started = Date.now();
  try {
    const mod = await import(pathToFileURL(join(here, `${part}.mjs`)).href);
    await mod.run({ args });
  } catch (error) {
    // One part failing still lets the others print.
    console.error(`${part}: ${error instanceof Error ? error.stack : error}`);
    process.exitCode = 1;
  }
  console.log(`(${part}: ${((Date.now() - started) / 1000).toFixed(0)} s)`);
}
