import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Newest modification time of the files under `dir` (skipping node_modules and dist). */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** True when the console's build is missing or older than its sources or the shared api package. */
export function webIsStale(root) {
  const built = join(root, 'packages/web/dist/index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return ['packages/web/src', 'packages/web/index.html', 'packages/api/src'].some((p) => {
    const path = join(root, p);
    if (!existsSync(path)) return false;
    return (statSync(path).isDirectory() ? newest(path) : statSync(path).mtimeMs) > builtAt;
  });
}
