import { createConnection, createServer, type Server } from 'node:net';

/** Exit status of a second server started on a config another running server holds. */
export const EXIT_LOCKED = 3;

/** Another live server holds the lock of this config. */
export class InstanceLocked extends Error {
  constructor(
    readonly configPath: string,
    readonly holderPid: number | undefined,
  ) {
    super(
      `another Sluice server${holderPid ? ` (pid ${holderPid})` : ''} is running with ${configPath}: ` +
        'stop it first, or give this one its own config (--config); this one did not start',
    );
    this.name = 'InstanceLocked';
  }
}

/**
 * Takes the lock of one config, before anything else starts: a second server on the same config
 * would kill the first one's ffmpeg children as leftovers (engine/ffmpeg/leftovers.ts) and fight
 * over its file and ports. The lock is a listening socket in Linux's abstract namespace, named by
 * the config's owner mark: the kernel frees it when its holder exits in any way (SIGKILL and crashes
 * included), so a dead server's lock is never stale and two starting at once can't both take it,
 * which a pid file can't promise. The holder answers a connection with its pid, for the message.
 * Elsewhere there is no /proc, so no leftovers are killed either, and no lock is taken.
 * Resolves with a function that releases the lock.
 */
export async function takeInstanceLock(configPath: string, owner: string): Promise<() => Promise<void>> {
  if (process.platform !== 'linux') return async () => undefined;
  const name = `\0sluice-instance-${owner}`;
  const server = createServer((socket) => socket.end(String(process.pid)));
  try {
    await listen(server, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw new InstanceLocked(configPath, await holderPid(name));
  }
  // The lock must not keep an exiting process alive.
  server.unref();
  return () => new Promise((resolve) => server.close(() => resolve()));
}

function listen(server: Server, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(name, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The pid the holder answers with; undefined if it does not answer within a second. */
function holderPid(name: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    let text = '';
    const socket = createConnection(name);
    const done = () => {
      socket.destroy();
      const pid = Number(text.trim());
      resolve(Number.isInteger(pid) && pid > 0 ? pid : undefined);
    };
    socket.setTimeout(1000, done);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('end', done);
    socket.on('error', done);
  });
}
