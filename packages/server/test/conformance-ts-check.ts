import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * MPEG-TS checks written apart from the product's own TS code (an analyzer must not share the
 * reader it checks), run beside Debian's tsreport: ISO 13818-1 layout, ETSI TR 101 290 limits.
 */
const SIZE = 188;
const pidAt = (b: Buffer, o: number) => ((b[o + 1]! & 0x1f) << 8) | b[o + 2]!;
const pusi = (b: Buffer, o: number) => (b[o + 1]! & 0x40) !== 0;
const adaptation = (b: Buffer, o: number) => (b[o + 3]! & 0x20) !== 0 && b[o + 4]! > 0;
const payloadAt = (b: Buffer, o: number) => ((b[o + 3]! & 0x20) !== 0 ? o + 5 + b[o + 4]! : o + 4);

/** The PMT PIDs a PAT section in this packet lists (single-packet PATs, as every muxer writes them). */
function patPmtPids(b: Buffer, o: number): number[] {
  const start = payloadAt(b, o) + 1 + b[payloadAt(b, o)]!;
  const length = ((b[start + 1]! & 0x0f) << 8) | b[start + 2]!;
  const pids: number[] = [];
  for (let p = start + 8; p + 4 <= start + 3 + length - 4; p += 4) {
    const program = (b[p]! << 8) | b[p + 1]!;
    if (program !== 0) pids.push(((b[p + 2]! & 0x1f) << 8) | b[p + 3]!);
  }
  return pids;
}

/** CRC-32/MPEG-2 of a section (zero over the whole section, CRC included, when intact). */
function crc32Mpeg(b: Buffer, start: number, end: number): number {
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) {
    crc ^= b[i]! << 24;
    for (let k = 0; k < 8; k++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

/** Whether a segment opens with the PAT, then its PMT, before any elementary stream packet. */
export function tablesFirst(data: Buffer): string | undefined {
  if (data.length < SIZE || data[0] !== 0x47) return 'not MPEG-TS';
  if (pidAt(data, 0) !== 0 || !pusi(data, 0)) return `first packet is PID ${pidAt(data, 0)}, not the PAT`;
  const pmts = new Set(patPmtPids(data, 0));
  for (let o = SIZE; o + SIZE <= data.length; o += SIZE) {
    const pid = pidAt(data, o);
    if (pmts.has(pid)) return undefined;
    if (pid !== 0 && pid !== 0x11 && pid !== 0x1fff) return `PID ${pid} comes before the PMT`;
  }
  return 'no PMT';
}

/**
 * TR 101 290 checks over a continuous TS: continuity counters (1.4), PAT and PMT at least every
 * 0.5 s (1.3, 1.5), PSI CRC (2.2), PCR every 40 ms at most and never backwards (2.3), PTS every
 * 0.7 s at most (2.5), an SDT at least every 2 s (3.2). Time is read from the PCR.
 */
export function tsRuleBreaks(data: Buffer): string[] {
  const breaks = new Set<string>();
  const cc = new Map<number, { cc: number; dup: boolean }>();
  const lastAt = new Map<string, number>();
  let pmts = new Set<number>();
  let now: number | undefined;
  const every = (what: string, limitMs: number) => {
    if (now === undefined) return;
    const last = lastAt.get(what);
    if (last !== undefined && (now - last) / 90 > limitMs) breaks.add(`${what} interval over ${limitMs} ms`);
    lastAt.set(what, now);
  };
  for (let o = 0; o + SIZE <= data.length; o += SIZE) {
    if (data[o] !== 0x47) {
      breaks.add('sync byte lost');
      break;
    }
    const pid = pidAt(data, o);
    if (pid === 0x1fff) continue;
    const discontinuity = adaptation(data, o) && (data[o + 5]! & 0x80) !== 0;
    if (adaptation(data, o) && (data[o + 5]! & 0x10) !== 0) {
      const pcr =
        data[o + 6]! * 2 ** 25 +
        (data[o + 7]! << 17) +
        (data[o + 8]! << 9) +
        (data[o + 9]! << 1) +
        (data[o + 10]! >> 7);
      // The 33-bit clock wraps: a step is taken modulo 2^33, backwards when over half of it.
      const step = now === undefined ? 0 : (pcr - now + 2 ** 33) % 2 ** 33;
      if (now !== undefined && !discontinuity && (step === 0 || step > 2 ** 32))
        breaks.add(`PCR went back on PID ${pid} (${now} -> ${pcr}, byte ${o})`);
      else if (now !== undefined && !discontinuity && step / 90 > 40) breaks.add('PCR interval over 40 ms');
      now = pcr;
    }
    const counter = data[o + 3]! & 0x0f;
    const hasPayload = (data[o + 3]! & 0x10) !== 0;
    const last = cc.get(pid);
    if (last && hasPayload && !discontinuity) {
      if (counter === last.cc && !last.dup) last.dup = true;
      else if (counter !== ((last.cc + 1) & 0x0f))
        breaks.add(`CC error on PID ${pid} (${last.cc} -> ${counter})`);
    }
    if (hasPayload) cc.set(pid, { cc: counter, dup: counter === last?.cc && last.dup });
    if (!pusi(data, o)) continue;
    const start = payloadAt(data, o);
    if (pid === 0 || pid === 0x11 || pmts.has(pid)) {
      const section = start + 1 + data[start]!;
      const length = ((data[section + 1]! & 0x0f) << 8) | data[section + 2]!;
      if (section + 3 + length <= o + SIZE && crc32Mpeg(data, section, section + 3 + length) !== 0)
        breaks.add(`CRC error in table on PID ${pid}`);
      if (pid === 0) pmts = new Set(patPmtPids(data, o));
      every(pid === 0 ? 'PAT' : pid === 0x11 ? 'SDT' : 'PMT', pid === 0x11 ? 2000 : 500);
    } else if (
      data[start] === 0 &&
      data[start + 1] === 0 &&
      data[start + 2] === 1 &&
      data[start + 7]! & 0x80
    ) {
      every(`PTS on PID ${pid}`, 700);
    }
  }
  if (now === undefined) breaks.add('no PCR');
  if (!lastAt.has('SDT')) breaks.add('no SDT');
  return [...breaks];
}

/** What Debian's tsreport -b flags: CC discontinuities, DTS before PCR, PCR backwards or late. */
export function tsreportBreaks(data: Buffer): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-tsreport-'));
  try {
    writeFileSync(join(dir, 'in.ts'), data);
    const run = spawnSync('tsreport', ['-b', 'in.ts'], { cwd: dir, timeout: 60_000, maxBuffer: 64 << 20 });
    const lines = run.stdout.toString().split('\n');
    if (run.status !== 0) return [`tsreport exited ${run.status}: ${run.stderr.toString()}`];
    // One line per kind (tsreport prints one per occurrence), with how often it came.
    const kinds = new Map<string, number>();
    for (const l of lines.filter((x) => /^\s*(###|!!!)/.test(x))) {
      const kind = l.trim().replace(/\d+t?\b/g, 'N');
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    return [...kinds].map(([kind, n]) => `${n} x ${kind}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ProbedSegment {
  /** DTS (90 kHz) of each packet, by codec type, in file order. */
  dts: { video: number[]; audio: number[] };
  firstVideoFrameKey: boolean | undefined;
  /** What ffprobe said at level error while decoding it alone. */
  errors: string;
}

/**
 * ffprobe reading one segment from stdin, its output once it ends. Not spawnSync: the conformance
 * test probes several hundred segments and runs a few at once (see mapPooled).
 */
function ffprobe(args: string[], data: Buffer): Promise<{ stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn('ffprobe', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const [out, err]: Buffer[][] = [[], []];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', fail);
    child.on('close', () => {
      clearTimeout(timer);
      done({ stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() });
    });
    // ffprobe may stop reading early (it has what it needs): that is not an error of the test.
    child.stdin.on('error', () => {});
    child.stdin.end(data);
  });
}

/** fn over every item, at most `parallel` at once; results in the items' order. */
export async function mapPooled<T, R>(items: readonly T[], parallel: number, fn: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return results;
}

/** ffprobe of one segment alone: its packets' timestamps and whether it decodes from its first frame. */
export async function probeSegment(data: Buffer): Promise<ProbedSegment> {
  const run = await ffprobe(
    [
      '-v',
      'error',
      '-of',
      'json',
      '-show_entries',
      'packet=codec_type,dts:frame=media_type,key_frame',
      '-i',
      'pipe:0',
    ],
    data,
  );
  // With both packets and frames asked, ffprobe lists them together, in the order it read them.
  const out = JSON.parse(run.stdout || '{}') as {
    packets_and_frames?: {
      type: string;
      codec_type?: string;
      dts?: number;
      media_type?: string;
      key_frame?: number;
    }[];
  };
  const dts = { video: [] as number[], audio: [] as number[] };
  const items = out.packets_and_frames ?? [];
  for (const p of items)
    if (p.type === 'packet' && (p.codec_type === 'video' || p.codec_type === 'audio') && p.dts !== undefined)
      dts[p.codec_type].push(p.dts);
  const firstVideo = items.find((f) => f.type === 'frame' && f.media_type === 'video');
  return {
    dts,
    firstVideoFrameKey: firstVideo ? firstVideo.key_frame === 1 : undefined,
    errors: run.stderr.trim(),
  };
}

/**
 * ffprobe's complaints decoding only the keyframes of one segment alone (the segment's first one
 * must decode without anything before it), and how many keyframes it decoded.
 */
export async function keyframeDecode(data: Buffer): Promise<{ keyframes: number; errors: string }> {
  const run = await ffprobe(
    [
      '-v',
      'error',
      '-skip_frame',
      'nokey',
      '-select_streams',
      'v:0',
      '-of',
      'json',
      '-show_entries',
      'frame=key_frame',
      '-i',
      'pipe:0',
    ],
    data,
  );
  const out = JSON.parse(run.stdout || '{}') as { frames?: { key_frame: number }[] };
  return {
    keyframes: (out.frames ?? []).filter((f) => f.key_frame === 1).length,
    errors: run.stderr.trim(),
  };
}

/** The usual DTS step of a track (its median), in 90 kHz ticks. */
function step(dts: number[]): number | undefined {
  const steps = dts
    .slice(1)
    .map((d, i) => d - dts[i]!)
    .filter((s) => s > 0)
    .sort((a, b) => a - b);
  return steps[Math.floor(steps.length / 2)];
}

/** Whether `next` takes up each track where `previous` left it, within half a frame. */
export function timestampGaps(previous: ProbedSegment, next: ProbedSegment): string[] {
  const gaps: string[] = [];
  for (const kind of ['video', 'audio'] as const) {
    const [a, b] = [previous.dts[kind], next.dts[kind]];
    const frame = step(a) ?? step(b);
    if (a.length === 0 || b.length === 0 || frame === undefined) continue;
    const gap = b[0]! - (a[a.length - 1]! + frame);
    if (Math.abs(gap) > frame / 2)
      gaps.push(
        `${kind} ${gap > 0 ? 'gap' : 'overlap'} of ${(Math.abs(gap) / 90).toFixed(1)} ms (frame ${(frame / 90).toFixed(1)} ms)`,
      );
  }
  return gaps;
}
