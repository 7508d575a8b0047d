import { loadLogin } from './credentials.js';
import {
  type ErrorEventLike,
  type ErrorReport,
  ReportLimiter,
  reportFromError,
  reportFromRejection,
} from './error-report.js';
import { API_BASE, jsonBody, request } from './http-client.js';

/** Reports are gathered for a second and sent together. */
export const REPORT_BATCH_MS = 1000;

/** POST {api_base}/error/store: the batch of reports as a JSON array. Only once logged in: the call needs it. */
export async function storeErrorReports(reports: readonly ErrorReport[]): Promise<void> {
  if (!loadLogin()) return;
  await request(`${API_BASE}/error/store`, jsonBody(reports));
}

interface Options {
  send?: (reports: readonly ErrorReport[]) => Promise<void>;
  limiter?: ReportLimiter;
  context?: () => { page: string; userAgent: string };
}

/**
 * Listens for uncaught errors and unhandled rejections on `target` (the window) and reports them.
 * A failed report is dropped without a word: logging it would be an error to report in turn.
 * Returns the function that stops listening.
 */
export function installErrorReporting(target: EventTarget, options: Options = {}): () => void {
  const send = options.send ?? storeErrorReports;
  const limiter = options.limiter ?? new ReportLimiter();
  const context = options.context ?? (() => ({ page: window.location.href, userAgent: navigator.userAgent }));
  let batch: ErrorReport[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const queue = (report: ErrorReport) => {
    if (!limiter.allow(report)) return;
    batch.push(report);
    timer ??= setTimeout(() => {
      const reports = batch;
      batch = [];
      timer = undefined;
      send(reports).catch(() => undefined);
    }, REPORT_BATCH_MS);
  };
  const onError = (event: Event) =>
    queue(reportFromError(event as ErrorEventLike, { ...context(), now: Date.now() }));
  const onRejection = (event: Event) =>
    queue(
      reportFromRejection((event as Event & { reason?: unknown }).reason, { ...context(), now: Date.now() }),
    );

  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
    clearTimeout(timer);
  };
}
