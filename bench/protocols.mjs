// Protocols: each part measures one way in or out of Sluice beside a reference in the same run
// (bench/protocols/*.mjs, each `export async function run({ seconds })`):
//   whep    WHEP viewers per core of one 2 Mbit/s stream beside HLS viewers per core; glass-to-glass
//   rtsp    RTSP play of 100 clients: server CPU per client beside HLS clients
//   llhls   LL-HLS blocking playlist reloads per second beside plain playlist requests
//   mss     Smooth Streaming fragments per second beside HLS TS segments (CPU per 1000 requests)
//   (and any other part present: whip, ingest…)
// Usage: npm run bench -- protocols [SECONDS=10] [PART,PART…]
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runParts } from './lib/parts.mjs';

const here = join(dirname(fileURLToPath(import.meta.url)), 'protocols');
const seconds = Number(process.argv[2] ?? 10);
await runParts(here, process.argv[3]?.split(','), { seconds }, 'protocol bench');
