import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ErrorReport, ReportLimiter, reportFromError, reportFromRejection } from './error-report.js';
import { installErrorReporting, REPORT_BATCH_MS } from './error-reporting.js';

const context = { page: 'http://host/admin/config', userAgent: 'Chromium', now: 1_700_000_000_000 };

describe('error reports', () => {
  it('describes an uncaught error with its stack and where it was thrown', () => {
    const error = new TypeError("Cannot read properties of undefined (reading 'x')");
    expect(
      reportFromError(
        {
          message: 'Uncaught TypeError',
          filename: 'http://host/admin/assets/index.js',
          lineno: 3,
          colno: 17,
          error,
        },
        context,
      ),
    ).toEqual({
      type: 'error',
      message: "TypeError: Cannot read properties of undefined (reading 'x')",
      stack: error.stack,
      source: 'http://host/admin/assets/index.js',
      line: 3,
      column: 17,
      page: 'http://host/admin/config',
      user_agent: 'Chromium',
      at: 1_700_000_000_000,
    });
    // A cross-origin script error carries only its message.
    expect(reportFromError({ message: 'Script error.' }, context)).toMatchObject({
      type: 'error',
      message: 'Script error.',
    });
  });

  it('describes a rejection whatever its reason is', () => {
    expect(reportFromRejection(new Error('save failed'), context)).toMatchObject({
      type: 'unhandledrejection',
      message: 'Error: save failed',
    });
    expect(reportFromRejection('plain text', context).message).toBe('plain text');
    expect(reportFromRejection({ code: 7 }, context).message).toBe('{"code":7}');
    expect(reportFromRejection(undefined, context).message).toBe('undefined');
    expect(reportFromRejection('x'.repeat(10_000), context).message.length).toBe(4001);
  });

  it('lets through at most ten reports a minute, and the same message once', () => {
    const limiter = new ReportLimiter(10, 60_000);
    const report = (message: string, at: number): ErrorReport => ({
      ...reportFromRejection(message, { ...context, now: at }),
    });
    expect(limiter.allow(report('a', 0))).toBe(true);
    expect(limiter.allow(report('a', 10))).toBe(false);
    for (let i = 0; i < 9; i++) expect(limiter.allow(report(`m${i}`, 20))).toBe(true);
    expect(limiter.allow(report('one too many', 30))).toBe(false);
    expect(limiter.allow(report('a', 60_000))).toBe(true);
  });
});

describe('installErrorReporting', () => {
  afterEach(() => vi.useRealTimers());

  it('sends the errors of a second together, and a loop only up to the limit', async () => {
    vi.useFakeTimers();
    const target = new EventTarget();
    const sent: ErrorReport[][] = [];
    const stop = installErrorReporting(target, {
      send: async (reports) => void sent.push([...reports]),
      context: () => ({ page: 'p', userAgent: 'u' }),
    });
    for (let i = 0; i < 50; i++)
      target.dispatchEvent(Object.assign(new Event('error'), { error: new Error(`boom ${i}`) }));
    target.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: new Error('boom 1') }));
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(REPORT_BATCH_MS);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.map((r) => r.message)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `Error: boom ${i}`),
    ]);
    stop();
    target.dispatchEvent(Object.assign(new Event('error'), { error: new Error('after stop') }));
    await vi.advanceTimersByTimeAsync(REPORT_BATCH_MS * 2);
    expect(sent).toHaveLength(1);
  });

  it('drops a report the server refused without raising anything', async () => {
    vi.useFakeTimers();
    const target = new EventTarget();
    const send = vi.fn(async () => {
      throw new Error('401');
    });
    installErrorReporting(target, { send, context: () => ({ page: 'p', userAgent: 'u' }) });
    target.dispatchEvent(Object.assign(new Event('error'), { message: 'x' }));
    await vi.advanceTimersByTimeAsync(REPORT_BATCH_MS);
    expect(send).toHaveBeenCalledTimes(1);
  });
});
