import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
}

/** The specs drive what `npm start` serves: build the server (incremental) and the console when stale. */
export default async function globalSetup(): Promise<void> {
  run('npx', ['tsc', '-b', 'packages/server']);
  const { webIsStale } = (await import(pathToFileURL(join(root, 'scripts', 'stale.mjs')).href)) as {
    webIsStale: (root: string) => boolean;
  };
  if (webIsStale(root)) run('npm', ['run', 'build', '-w', 'packages/web']);
}
