/** A tiny leveled logger writing one line per event to stderr; the level follows the config's loglevel. */
export type LogLevel = 'debug' | 'notice' | 'error';
const rank: Record<LogLevel, number> = { debug: 0, notice: 1, error: 2 };

export interface Logger {
  debug(message: string): void;
  notice(message: string): void;
  error(message: string): void;
  setLevel(level: LogLevel | undefined): void;
}

export function createLogger(initial: LogLevel = 'notice'): Logger {
  let level = initial;
  const write = (at: LogLevel, message: string) => {
    if (rank[at] >= rank[level]) process.stderr.write(`${new Date().toISOString()} ${at} ${message}\n`);
  };
  return {
    debug: (m) => write('debug', m),
    notice: (m) => write('notice', m),
    error: (m) => write('error', m),
    setLevel: (l) => {
      level = l ?? 'notice';
    },
  };
}
