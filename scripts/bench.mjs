#!/usr/bin/env node
// `npm run bench -- NAME [args]` runs bench/NAME.mjs (or every bench with no NAME, except the long
// ones, run only by name: `npm run bench -- soak --minutes 30`). Benches print figures beside a
// reference measured in the same run; they never pass or fail on a time.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [name, ...args] = process.argv.slice(2);
const all = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.mjs'))
  .map((f) => f.slice(0, -4));
/** Benches of ten minutes or more: not part of a run of every bench. */
const LONG = new Set(['soak', 'dash-play', 'vod']);
const chosen = name
  ? all.filter((b) => b === name || b.startsWith(`${name}-`))
  : all.filter((b) => !LONG.has(b));
if (chosen.length === 0) {
  console.error(`no bench named ${name}; there are: ${all.join(', ')}`);
  process.exit(2);
}
spawnSync('npx', ['tsc', '-b', 'packages/server'], { cwd: root, stdio: 'inherit' });
for (const bench of chosen) {
  console.log(`\n### bench ${bench}`);
  const result = spawnSync(process.execPath, [join(root, 'bench', `${bench}.mjs`), ...args], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exitCode = 1;
}
