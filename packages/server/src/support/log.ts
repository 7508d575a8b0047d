/** A tiny leveled logger writing one line per event to stderr; the level follows the config's loglevel. */
export type LogLevel = 'debug' | 'notice' | 'error';
const rank: Record<LogLevel, number> = { debug: 0, notice: 1, error: 2 };

export interface Logger {
  debug(message: string): void;
  notice(message: string): void;
  error(message: string): void;
  setLevel(level: LogLevel | undefined): void;
}

/** The lines written lately, for the support bundle (diagnostics/): stderr may go nowhere we can read. */
export interface RecentLog {
  /** Lines written since `sinceMs` (epoch ms), oldest first. */
  recent(sinceMs: number): string[];
}

/** Bounds of the recent-lines ring: a chatty debug log must not grow the process. */
export const RECENT_LOG_LIMITS = { lines: 20_000, bytes: 4 * 1024 * 1024 };

export function createLogger(initial: LogLevel = 'notice'): Logger & RecentLog {
  let level = initial;
  const ring: { at: number; line: string }[] = [];
  let ringBytes = 0;
  const write = (at: LogLevel, message: string) => {
    if (rank[at] < rank[level]) return;
    const now = Date.now();
    const line = `${new Date(now).toISOString()} ${at} ${message}\n`;
    process.stderr.write(line);
    ring.push({ at: now, line });
    ringBytes += line.length;
    while (ring.length > RECENT_LOG_LIMITS.lines || ringBytes > RECENT_LOG_LIMITS.bytes)
      ringBytes -= ring.shift()!.line.length;
  };
  return {
    recent: (sinceMs) => ring.filter((entry) => entry.at >= sinceMs).map((entry) => entry.line),
    debug: (m) => write('debug', m),
    notice: (m) => write('notice', m),
    error: (m) => write('error', m),
    setLevel: (l) => {
      level = l ?? 'notice';
    },
  };
}
