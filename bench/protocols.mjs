// Protocols: each part measures one way in or out of Sluice beside a reference in the same run
// (bench/protocols/*.mjs, each `export async function run({ seconds })`):
//   whep    WHEP viewers per core of one 2 Mbit/s stream beside HLS viewers per core; glass-to-glass
//   rtsp    RTSP play of 100 clients: server CPU per client beside HLS clients
//   llhls   LL-HLS blocking playlist reloads per second beside plain playlist requests
//   mss     Smooth Streaming fragments per second beside HLS TS segments (CPU per 1000 requests)
//   (and any other part present: whip, ingest…)
// Usage: npm run bench -- protocols [SECONDS=10] [PART,PART…]
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), 'protocols');
const seconds = Number(process.argv[2] ?? 10);
const wanted = process.argv[3]?.split(',');
const parts = readdirSync(here)
  .filter((f) => f.endsWith('.mjs'))
  .map((f) => f.slice(0, -4))
  .filter((p) => !wanted || wanted.includes(p))
  .sort();
if (parts.length === 0) {
  console.error(`no protocol bench part${wanted ? ` named ${wanted.join(', ')}` : ''} in ${here}`);
  process.exit(2);
}
for (const part of parts) {
  console.log(`\n## ${part}`);
  const started = Date.now();
  try {
    const mod = await import(pathToFileURL(join(here, `${part}.mjs`)).href);
    await mod.run({ seconds });
  } catch (error) {
    // One part failing (a reference missing on this machine…) still lets the others print.
    console.error(`${part}: ${error instanceof Error ? error.stack : error}`);
    process.exitCode = 1;
  }
  console.log(`(${part}: ${((Date.now() - started) / 1000).toFixed(0)} s)`);
}
