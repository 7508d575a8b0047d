/**
 * The console reports its own failures (spec 000 §7: POST {api_base}/error/store with error-report
 * events as the body): uncaught errors and unhandled rejections, so an operator's broken screen
 * leaves a trace on the server.
 */
export interface ErrorReport {
  type: 'error' | 'unhandledrejection';
  message: string;
  stack?: string;
  /** Script and position, for uncaught errors. */
  source?: string;
  line?: number;
  column?: number;
  /** The console page the error happened on. */
  page: string;
  user_agent: string;
  /** ms since the epoch. */
  at: number;
}

export interface ReportContext {
  page: string;
  userAgent: string;
  now: number;
}

/** The fields of a window 'error' event this reads. */
export interface ErrorEventLike {
  message?: string;
  filename?: string;
  lineno?: number;
  colno?: number;
  error?: unknown;
}

const MAX_TEXT = 4000;
const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

function describe(value: unknown): { message: string; stack?: string } {
  if (value instanceof Error)
    return { message: clip(`${value.name}: ${value.message}`), stack: value.stack && clip(value.stack) };
  if (typeof value === 'string') return { message: clip(value) };
  try {
    return { message: clip(JSON.stringify(value) ?? String(value)) };
  } catch {
    return { message: clip(String(value)) };
  }
}

export function reportFromError(event: ErrorEventLike, context: ReportContext): ErrorReport {
  const described = event.error !== undefined && event.error !== null ? describe(event.error) : undefined;
  return {
    type: 'error',
    message: described?.message ?? clip(event.message || 'unknown error'),
    ...(described?.stack ? { stack: described.stack } : {}),
    ...(event.filename ? { source: event.filename, line: event.lineno, column: event.colno } : {}),
    page: context.page,
    user_agent: context.userAgent,
    at: context.now,
  };
}

export function reportFromRejection(reason: unknown, context: ReportContext): ErrorReport {
  const { message, stack } = describe(reason);
  return {
    type: 'unhandledrejection',
    message,
    ...(stack ? { stack } : {}),
    page: context.page,
    user_agent: context.userAgent,
    at: context.now,
  };
}

/**
 * At most `max` reports a window, and the same message once a window: an error thrown in a
 * render loop or a timer must not flood the server.
 */
export class ReportLimiter {
  private windowStart = -Infinity;
  private count = 0;
  private readonly seen = new Set<string>();

  constructor(
    private readonly max = 10,
    private readonly windowMs = 60_000,
  ) {}

  allow(report: ErrorReport): boolean {
    if (report.at - this.windowStart >= this.windowMs) {
      this.windowStart = report.at;
      this.count = 0;
      this.seen.clear();
    }
    const key = `${report.type}\u0000${report.message}`;
    if (this.count >= this.max || this.seen.has(key)) return false;
    this.count++;
    this.seen.add(key);
    return true;
  }
}
