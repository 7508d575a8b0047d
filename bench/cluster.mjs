// Cluster: each part measures one side of the cluster beside a reference in the same run
// (bench/cluster/*.mjs, each `export async function run({ args })`):
//   poll-cost   what one peer poll costs at 20,000 streams per peer (CPU and bytes, full list and
//               unchanged list) beside GET read_config on the same server
//   redirect    a new viewer at Load > 100 %: 302 to the peer with the stream, time to its playlist
//               beside asking that peer directly
//   (and any other part present: failover…)
// Usage: npm run bench -- cluster [PART,PART…] [part arguments]
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { partNames, runParts } from './lib/parts.mjs';

const here = join(dirname(fileURLToPath(import.meta.url)), 'cluster');
const first = process.argv[2]?.split(',');
const named = first !== undefined && partNames(here).some((p) => first.includes(p));
await runParts(here, named ? first : undefined, { args: process.argv.slice(named ? 3 : 2) }, 'cluster bench');
