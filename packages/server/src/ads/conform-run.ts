import { type ChildProcess, spawn } from 'node:child_process';

/** The stderr kept for an error message (bytes, the tail). */
const STDERR_TAIL_BYTES = 4096;

/** Runs a child to its end: exit code, stdout, stderr's tail; killed past the time limit. */
export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs: number; children?: Set<ChildProcess> },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    options.children?.add(child);
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-STDERR_TAIL_BYTES);
    });
    const timer = setTimeout(() => {
      err += `\nkilled after ${options.timeoutMs} ms`;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      err += `\n${error.message}`;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.children?.delete(child);
      resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString(), stderr: err });
    });
  });
}
