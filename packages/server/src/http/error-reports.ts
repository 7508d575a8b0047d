import { appendFile, rename, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readErrorReportFile, type StoredErrorReport } from './error-report-reader.js';

/** Bounds of the error report log; every one holds whatever a caller posts. */
export interface ErrorReportLimits {
  /** A report longer than this (as JSON) is kept cut to this length, marked `truncated`. */
  reportBytes: number;
  /** Reports kept in memory: the oldest go first once either bound is passed. */
  count: number;
  totalBytes: number;
  /** The file is renamed to `<file>.1` (replacing the previous one) before it would pass this. */
  fileBytes: number;
}

export const ERROR_REPORT_LIMITS: ErrorReportLimits = {
  reportBytes: 16 * 1024,
  count: 500,
  totalBytes: 1024 * 1024,
  fileBytes: 1024 * 1024,
};

/** The file beside the config where reports are kept: an operator reads it with `tail`. */
export const errorReportFileOf = (configPath: string): string =>
  join(dirname(configPath), 'error-reports.log');

interface Entry {
  at: number;
  /** The line as written to the file (JSON), which is also what the memory bound counts. */
  line: string;
}

/**
 * Error reports the console posts (spec 000 §7 error/store): a ring bounded by count and bytes,
 * and a JSON-lines file bounded by size. A view-only login can post these, so nothing here may
 * grow with what is posted: each report is cut, the ring drops its oldest, the file rotates, and
 * lines that arrive faster than the disk takes them are dropped rather than queued.
 */
export class ErrorReportLog {
  private readonly entries: Entry[] = [];
  private entryBytes = 0;
  private pending: string[] = [];
  private pendingBytes = 0;
  private droppedLines = 0;
  private fileSize: number | undefined;
  private writing: Promise<void> = Promise.resolve();
  private writeFailed = false;
  private flushing = false;

  constructor(
    private readonly file: string | undefined,
    private readonly logError: (line: string) => void = () => undefined,
    private readonly limits: ErrorReportLimits = ERROR_REPORT_LIMITS,
  ) {}

  /** Keeps one posted body: an array is a batch of reports (what the console sends), kept one by one. */
  add(body: unknown, from: string): void {
    const reports = Array.isArray(body) ? body : [body];
    const at = Date.now();
    for (const report of reports.slice(0, this.limits.count))
      this.keep({ at, line: this.lineOf(at, from, report) });
    this.flushSoon();
  }

  /** The reports in memory, oldest first. */
  list(): { at: number; report: unknown }[] {
    return this.entries.map(({ at, line }) => ({
      at,
      report: (JSON.parse(line) as { report: unknown }).report,
    }));
  }

  /** What is on disk (both files), oldest first, once what was added so far is written; memory without a file. */
  async stored(limit = this.limits.count): Promise<StoredErrorReport[]> {
    if (!this.file)
      return this.entries.slice(-limit).map(({ line }) => JSON.parse(line) as StoredErrorReport);
    await this.flushed();
    return readErrorReportFile(this.file, limit);
  }

  /** Resolves once what was added so far is in the file (or dropped). */
  async flushed(): Promise<void> {
    while (this.flushing || this.pending.length > 0) {
      this.flushSoon();
      await this.writing;
    }
  }

  private lineOf(at: number, from: string, report: unknown): string {
    const line = JSON.stringify({ at: new Date(at).toISOString(), from, report });
    if (line.length <= this.limits.reportBytes && Buffer.byteLength(line) <= this.limits.reportBytes)
      return line;
    // A long report keeps its beginning (the message and the top of the stack) as text.
    const json = JSON.stringify(report);
    let text = json.slice(0, this.limits.reportBytes - 200);
    while (Buffer.byteLength(JSON.stringify(text)) > this.limits.reportBytes - 200)
      text = text.slice(0, text.length / 2);
    return JSON.stringify({ at: new Date(at).toISOString(), from, truncated: json.length, report: text });
  }

  private keep(entry: Entry): void {
    const bytes = Buffer.byteLength(entry.line);
    this.entries.push(entry);
    this.entryBytes += bytes;
    while (this.entries.length > this.limits.count || this.entryBytes > this.limits.totalBytes) {
      this.entryBytes -= Buffer.byteLength(this.entries.shift()!.line);
    }
    if (!this.file) return;
    // The queue for the file holds at most one file's worth; beyond that the disk is behind.
    if (this.pendingBytes + bytes > this.limits.fileBytes) {
      this.droppedLines++;
      return;
    }
    this.pending.push(entry.line);
    this.pendingBytes += bytes + 1;
  }

  /** One writer at a time; it drains what arrives while it writes, so nothing queues per report. */
  private flushSoon(): void {
    const file = this.file;
    if (!file || this.flushing || this.pending.length === 0) return;
    this.flushing = true;
    this.writing = (async () => {
      while (this.pending.length > 0) await this.writePending(file);
      this.flushing = false;
    })();
  }

  private async writePending(file: string): Promise<void> {
    if (this.pending.length === 0) return;
    const chunk = `${this.pending.join('\n')}\n`;
    const bytes = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    try {
      this.fileSize ??= await stat(file).then(
        (s) => s.size,
        () => 0,
      );
      if (this.fileSize > 0 && this.fileSize + bytes > this.limits.fileBytes) {
        await rename(file, `${file}.1`);
        this.fileSize = 0;
      }
      await appendFile(file, chunk, { mode: 0o600 });
      this.fileSize += bytes;
      this.writeFailed = false;
    } catch (error) {
      this.fileSize = undefined;
      // Once per run of failures: a full disk would otherwise log a line per report.
      if (!this.writeFailed)
        this.logError(`error reports are not being written to ${file}: ${(error as Error).message}`);
      this.writeFailed = true;
    }
    if (this.droppedLines > 0) {
      this.logError(
        `${this.droppedLines} error reports were posted faster than ${file} took them and were not written`,
      );
      this.droppedLines = 0;
    }
  }
}
