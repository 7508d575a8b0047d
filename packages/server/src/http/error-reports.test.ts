import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorReportLog } from './error-reports.js';

const limits = { reportBytes: 1000, count: 20, totalBytes: 5000, fileBytes: 4000 };

describe('ErrorReportLog', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sluice-error-reports-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps each report of a batch, with who sent it, in memory and in the file', async () => {
    const file = join(dir, 'error-reports.log');
    const log = new ErrorReportLog(file, () => undefined, limits);
    log.add([{ message: 'TypeError: a' }, { message: 'TypeError: b' }], '10.0.0.7');
    await log.flushed();
    expect(log.list().map((e) => e.report)).toEqual([
      { message: 'TypeError: a' },
      { message: 'TypeError: b' },
    ]);
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.from, l.report.message])).toEqual([
      ['10.0.0.7', 'TypeError: a'],
      ['10.0.0.7', 'TypeError: b'],
    ]);
  });

  it('cuts a long report to its beginning, marked with its length', () => {
    const log = new ErrorReportLog(undefined, () => undefined, limits);
    log.add({ message: 'RangeError: x', stack: 'y'.repeat(50_000) }, 'a');
    const [entry] = log.list();
    expect(entry!.report).toMatch(/^\{"message":"RangeError: x","stack":"yyy/);
    expect(JSON.stringify(entry).length).toBeLessThan(limits.reportBytes);
  });

  it('drops the oldest past the count or the bytes, and rotates the file at its cap', async () => {
    const file = join(dir, 'error-reports.log');
    const log = new ErrorReportLog(file, () => undefined, limits);
    for (let i = 0; i < 200; i++) {
      log.add({ message: `error ${i}`, stack: 'z'.repeat(400) }, 'a');
      if (i % 10 === 0) await log.flushed();
    }
    await log.flushed();
    const kept = log.list();
    expect(kept.length).toBeLessThanOrEqual(limits.count);
    expect(JSON.stringify(kept).length).toBeLessThan(limits.totalBytes + 1000);
    expect((kept.at(-1)!.report as { message: string }).message).toBe('error 199');
    expect((await stat(file)).size).toBeLessThanOrEqual(limits.fileBytes);
    expect((await stat(`${file}.1`)).size).toBeLessThanOrEqual(limits.fileBytes);
    expect(await readFile(file, 'utf8')).toContain('"error 199"');
  });

  it('logs once, not per report, when the file cannot be written', async () => {
    const lines: string[] = [];
    const log = new ErrorReportLog(
      join(dir, 'missing-folder', 'error-reports.log'),
      (l) => lines.push(l),
      limits,
    );
    for (let i = 0; i < 5; i++) {
      log.add({ message: `e${i}` }, 'a');
      await log.flushed();
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/error reports are not being written to .*missing-folder/);
    expect(log.list()).toHaveLength(5);
  });
});
