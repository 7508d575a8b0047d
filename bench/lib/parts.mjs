// A bench made of parts (bench/NAME/*.mjs, each `export async function run(options)`): runs the
// wanted parts in name order, each under its own heading with its wall time. One part failing (a
// reference missing on this machine…) still lets the others print; the exit code says it failed.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The part names in `folder`, sorted. */
export function partNames(folder) {
  return readdirSync(folder)
    .filter((f) => f.endsWith('.mjs'))
    .map((f) => f.slice(0, -4))
    .sort();
}

/** Runs `wanted` (all when undefined) of the parts in `folder`, passing `options` to each. */
export async function runParts(folder, wanted, options, what = 'bench') {
  const parts = partNames(folder).filter((p) => !wanted || wanted.includes(p));
  if (parts.length === 0) {
    console.error(`no ${what} part${wanted ? ` named ${wanted.join(', ')}` : ''} in ${folder}`);
    process.exit(2);
  }
  for (const part of parts) {
    console.log(`\n## ${part}`);
    const started = Date.now();
    try {
      const mod = await import(pathToFileURL(join(folder, `${part}.mjs`)).href);
      await mod.run(options);
    } catch (error) {
      console.error(`${part}: ${error instanceof Error ? error.stack : error}`);
      process.exitCode = 1;
    }
    console.log(`(${part}: ${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
}
