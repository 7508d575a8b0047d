import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';

/**
 * Children of a server that died without stopping them (SIGKILL, a crash) would keep running and
 * hold ports and CPU. Each child carries an owner mark in its environment; at start the server
 * kills the process groups still carrying its own mark. Reading /proc/PID/environ works only for
 * our own processes, which is exactly the set we may kill; and a mark, unlike a saved pid, cannot
 * point at an unrelated process that reused the number.
 */
export const OWNER_VARIABLE = 'SLUICE_CHILD_OWNER';

/** The mark of one server instance: its config file, since two servers never share one. */
export function ownerMark(configPath: string): string {
  return createHash('sha256').update(configPath).digest('hex').slice(0, 16);
}

/** The environment a child of this owner runs with. */
export function childEnv(owner: string): NodeJS.ProcessEnv {
  return { ...process.env, [OWNER_VARIABLE]: owner };
}

/** Kills every process group led by a process carrying `owner`; resolves with the pids found. */
export async function killLeftovers(owner: string, procDir = '/proc'): Promise<number[]> {
  const entries = await readdir(procDir).catch(() => [] as string[]);
  const needle = `\0${OWNER_VARIABLE}=${owner}\0`;
  const found: number[] = [];
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
      .map(async (entry) => {
        const environ = await readFile(`${procDir}/${entry}/environ`, 'latin1').catch(() => '');
        if (!`\0${environ}\0`.includes(needle)) return;
        const pid = Number(entry);
        found.push(pid);
        for (const target of [-pid, pid]) {
          try {
            process.kill(target, 'SIGKILL');
          } catch {
            // Not a group leader, or already gone.
          }
        }
      }),
  );
  return found;
}
