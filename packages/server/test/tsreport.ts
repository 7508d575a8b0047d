import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What Debian's tstools `tsreport -b` says of a stream (PCR/DTS order, continuity on its ES PIDs). */
export interface TsReport {
  pcrCount: number;
  /** The largest step between two PCRs, 90 kHz ticks. */
  maxPcrGapTicks: number;
  /** PCR steps over 100 ms. */
  badPcrGaps: number;
  streams: { pid: number; dtsBeforePcr: number; continuityErrors: number }[];
  text: string;
}

export function tsreport(ts: Buffer): TsReport {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-tsreport-'));
  try {
    const file = join(dir, 'stream.ts');
    writeFileSync(file, ts);
    const result = spawnSync('tsreport', ['-b', file], {
      cwd: dir,
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    const text = `${result.stdout?.toString() ?? ''}${result.stderr?.toString() ?? ''}`;
    if (result.status !== 0) throw new Error(`tsreport failed (${result.status}): ${text}`);
    return parse(text);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function parse(text: string): TsReport {
  const pcr = /PCRs found: (\d+), Bad \(>\.1s\) gaps: (\d+), Max gap: (\d+)t/.exec(text);
  const streams: TsReport['streams'] = [];
  const blocks = text.split(/^Stream \d+: PID [0-9a-f]+ \(\s*/m).slice(1);
  for (const block of blocks) {
    const pid = Number.parseInt(block, 10);
    // The summary of a stream ends its block; the "### PID(n): …" lines before it are first occurrences.
    const count = (pattern: RegExp) => Number(pattern.exec(block)?.[1] ?? 0);
    streams.push({
      pid,
      dtsBeforePcr: count(/### DTS < PCR \* (\d+)/),
      continuityErrors: count(/### CC error \* (\d+)/),
    });
  }
  return {
    pcrCount: Number(pcr?.[1] ?? 0),
    badPcrGaps: Number(pcr?.[2] ?? 0),
    maxPcrGapTicks: Number(pcr?.[3] ?? 0),
    streams,
    text,
  };
}
