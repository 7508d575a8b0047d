import { open } from 'node:fs/promises';
import { errorReportFileOf } from './error-reports.js';

/** One line of `error-reports.log` as written by ErrorReportLog. */
export interface StoredErrorReport {
  /** ISO time the server received it. */
  at: string;
  /** The sender's address. */
  from: string;
  /** The report as posted, or its beginning as text when it was cut. */
  report: unknown;
  /** Full length (JSON) of a report that was cut. */
  truncated?: number;
}

/** What is read at most from each of the two files: both are rotated at 1 MiB, so this reads all of them. */
const READ_CAP_BYTES = 2 * 1024 * 1024;

/**
 * The console's error reports kept on disk beside the config (`error-reports.log.1`, then
 * `error-reports.log`), oldest first, at most `limit` of the newest. Read from the files rather
 * than memory so what was posted before a restart is there too; a missing file is no reports, a
 * line that does not parse (a write cut by a crash) is skipped. Used by GET /error/reports and
 * the diagnostics bundle.
 */
export async function readErrorReports(configPath: string, limit = 500): Promise<StoredErrorReport[]> {
  return readErrorReportFile(errorReportFileOf(configPath), limit);
}

/** readErrorReports for the file itself (ErrorReportLog knows its file, not the config). */
export async function readErrorReportFile(file: string, limit = 500): Promise<StoredErrorReport[]> {
  const lines = [...(await tailLines(`${file}.1`)), ...(await tailLines(file))];
  const out: StoredErrorReport[] = [];
  for (const line of lines.slice(-Math.max(0, limit))) {
    const parsed = parseLine(line);
    if (parsed) out.push(parsed);
  }
  return out;
}

async function tailLines(path: string): Promise<string[]> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) return [];
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, READ_CAP_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split('\n');
    // A read that starts mid-file drops the partial first line.
    if (length < size) lines.shift();
    return lines.filter((l) => l !== '');
  } finally {
    await handle.close();
  }
}

function parseLine(line: string): StoredErrorReport | undefined {
  try {
    const value = JSON.parse(line) as Partial<StoredErrorReport>;
    if (typeof value !== 'object' || value === null || typeof value.at !== 'string') return undefined;
    return {
      at: value.at,
      from: typeof value.from === 'string' ? value.from : '',
      report: value.report,
      ...(typeof value.truncated === 'number' ? { truncated: value.truncated } : {}),
    };
  } catch {
    return undefined;
  }
}
