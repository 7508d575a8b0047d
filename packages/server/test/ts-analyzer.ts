/**
 * A small MPEG-TS analyzer for the ETSI TR 101 290 checks tsreport leaves out (it checks continuity
 * only on elementary-stream PIDs, and times no tables): continuity counters on every PID, how long
 * the stream goes without a PAT, PMT or SDT, PCR spacing, and whether each access unit arrives
 * before its decode time. Time at a packet is the PCR interpolated by packet count between the
 * PCRs around it (extrapolated after the last), as tsreport does, so both give the same figures.
 */
export interface ContinuityError {
  pid: number;
  /** Packet index in the stream. */
  index: number;
  expected: number;
  got: number;
}

export interface PidTiming {
  /** Access units whose DTS (PTS when none) was before the PCR when their first packet came. */
  late: number;
  units: number;
  /** The smallest DTS − PCR seen, ms (negative: late). */
  minLeadMs: number;
}

export interface TsAnalysis {
  packets: number;
  continuityErrors: ContinuityError[];
  pcrPid: number | undefined;
  pcrCount: number;
  /** Largest step between two consecutive PCRs, ms. */
  maxPcrGapMs: number;
  /** From the first PCR to the last, ms. */
  pcrSpanMs: number;
  /** The longest stretch of timed stream (from the first PCR on) without the table starting, ms. */
  maxGapMs: { pat: number; pmt: number; sdt: number };
  timing: Map<number, PidTiming>;
  /** From the SDT (EN 300 468 service_descriptor), if any. */
  service: { provider: string; name: string } | undefined;
}

const PACKET = 188;
const PCR_WRAP = 2 ** 33 * 300;
const PTS_WRAP = 2 ** 33;
const SDT_PID = 0x11;

export function analyzeTs(ts: Buffer): TsAnalysis {
  const count = Math.floor(ts.length / PACKET);
  const { pmtPid, pcrPid, esPids } = programOf(ts, count);
  const pcrs: { index: number; pcr27: number }[] = [];
  for (let i = 0; i < count; i++) {
    const o = i * PACKET;
    if (pidAt(ts, o) !== pcrPid) continue;
    const pcr = pcrAt(ts, o);
    if (pcr === undefined) continue;
    const previous = pcrs.at(-1)?.pcr27;
    pcrs.push({
      index: i,
      pcr27: previous === undefined ? pcr : previous + wrapDiff(pcr - (previous % PCR_WRAP), PCR_WRAP),
    });
  }
  const time = timeline(pcrs);
  const continuityErrors: ContinuityError[] = [];
  const last = new Map<number, { cc: number; o: number; duplicated: boolean }>();
  const seen = { pat: [] as number[], pmt: [] as number[], sdt: [] as number[] };
  const timing = new Map<number, PidTiming>();
  let service: TsAnalysis['service'];
  for (let i = 0; i < count; i++) {
    const o = i * PACKET;
    const pid = pidAt(ts, o);
    if (pid === 0x1fff) continue;
    checkContinuity(ts, o, i, pid, last, continuityErrors);
    const unitStart = (ts[o + 1]! & 0x40) !== 0;
    if (unitStart && pid === SDT_PID) service ??= readService(sectionAt(ts, o));
    const t = time(i);
    if (!unitStart || t === undefined) continue;
    if (pid === 0) seen.pat.push(t);
    if (pid === pmtPid) seen.pmt.push(t);
    if (pid === SDT_PID) seen.sdt.push(t);
    if (esPids.has(pid)) {
      const dts = pesDts(ts, o);
      if (dts === undefined) continue;
      const lead = wrapDiff(dts - ((t / 300) % PTS_WRAP), PTS_WRAP) / 90;
      const entry = timing.get(pid) ?? { late: 0, units: 0, minLeadMs: Infinity };
      entry.units++;
      if (lead < 0) entry.late++;
      entry.minLeadMs = Math.min(entry.minLeadMs, lead);
      timing.set(pid, entry);
    }
  }
  const span = pcrs.length > 0 ? [time(pcrs[0]!.index)!, time(count - 1)!] : undefined;
  const gap = (at: number[]) => (span ? maxGap(at, span[0]!, span[1]!) / 27_000 : 0);
  let maxPcrGap = 0;
  for (let k = 1; k < pcrs.length; k++) maxPcrGap = Math.max(maxPcrGap, pcrs[k]!.pcr27 - pcrs[k - 1]!.pcr27);
  return {
    packets: count,
    continuityErrors,
    pcrPid,
    pcrCount: pcrs.length,
    maxPcrGapMs: maxPcrGap / 27_000,
    pcrSpanMs: pcrs.length > 1 ? (pcrs.at(-1)!.pcr27 - pcrs[0]!.pcr27) / 27_000 : 0,
    maxGapMs: { pat: gap(seen.pat), pmt: gap(seen.pmt), sdt: gap(seen.sdt) },
    timing,
    service,
  };
}

/** ISO 13818-1 §2.4.3.3: +1 per packet with payload, unchanged without; one identical repeat allowed. */
function checkContinuity(
  ts: Buffer,
  o: number,
  index: number,
  pid: number,
  last: Map<number, { cc: number; o: number; duplicated: boolean }>,
  errors: ContinuityError[],
): void {
  const cc = ts[o + 3]! & 0x0f;
  const payload = (ts[o + 3]! & 0x10) !== 0;
  const adaptation = (ts[o + 3]! & 0x20) !== 0;
  const discontinuity = adaptation && ts[o + 4]! > 0 && (ts[o + 5]! & 0x80) !== 0;
  const previous = last.get(pid);
  last.set(pid, { cc, o, duplicated: false });
  if (!previous || discontinuity) return;
  const expected = payload ? (previous.cc + 1) & 0x0f : previous.cc;
  if (cc === expected) return;
  const duplicate =
    payload &&
    cc === previous.cc &&
    !previous.duplicated &&
    ts.subarray(o, o + PACKET).equals(ts.subarray(previous.o, previous.o + PACKET));
  if (duplicate) last.set(pid, { cc, o, duplicated: true });
  else errors.push({ pid, index, expected, got: cc });
}

/** The PMT PID, PCR PID and elementary PIDs of the first program, from the first PAT and PMT. */
function programOf(ts: Buffer, count: number): { pmtPid?: number; pcrPid?: number; esPids: Set<number> } {
  let pmtPid: number | undefined;
  for (let i = 0; i < count; i++) {
    const o = i * PACKET;
    const pid = pidAt(ts, o);
    if (!((ts[o + 1]! & 0x40) !== 0)) continue;
    const s = sectionAt(ts, o);
    if (pid === 0 && s?.[0] === 0x00 && pmtPid === undefined) {
      for (let k = 8; k + 4 <= s.length - 4; k += 4) {
        if (((s[k]! << 8) | s[k + 1]!) !== 0) {
          pmtPid = ((s[k + 2]! & 0x1f) << 8) | s[k + 3]!;
          break;
        }
      }
    } else if (pid === pmtPid && s?.[0] === 0x02) {
      const pcrPid = ((s[8]! & 0x1f) << 8) | s[9]!;
      const esPids = new Set<number>();
      let k = 12 + (((s[10]! & 0x0f) << 8) | s[11]!);
      while (k + 5 <= s.length - 4) {
        esPids.add(((s[k + 1]! & 0x1f) << 8) | s[k + 2]!);
        k += 5 + (((s[k + 3]! & 0x0f) << 8) | s[k + 4]!);
      }
      return { pmtPid, pcrPid, esPids };
    }
  }
  return { pmtPid, esPids: new Set() };
}

/** 27 MHz time at each packet index: interpolated between PCRs, extrapolated after the last. */
function timeline(pcrs: { index: number; pcr27: number }[]): (index: number) => number | undefined {
  return (index) => {
    if (pcrs.length === 0 || index < pcrs[0]!.index) return undefined;
    let k = 1;
    while (k < pcrs.length && pcrs[k]!.index < index) k++;
    if (k < pcrs.length) {
      const a = pcrs[k - 1]!;
      const b = pcrs[k]!;
      return a.pcr27 + ((b.pcr27 - a.pcr27) * (index - a.index)) / (b.index - a.index);
    }
    if (pcrs.length < 2) return pcrs[0]!.pcr27;
    const a = pcrs[pcrs.length - 2]!;
    const b = pcrs[pcrs.length - 1]!;
    return b.pcr27 + ((b.pcr27 - a.pcr27) * (index - b.index)) / (b.index - a.index);
  };
}

function maxGap(times: number[], from: number, to: number): number {
  let gap = 0;
  let previous = from;
  for (const t of [...times, to]) {
    gap = Math.max(gap, t - previous);
    previous = t;
  }
  return gap;
}

const pidAt = (ts: Buffer, o: number) => ((ts[o + 1]! & 0x1f) << 8) | ts[o + 2]!;

function payloadAt(ts: Buffer, o: number): number | undefined {
  if ((ts[o + 3]! & 0x10) === 0) return undefined;
  const start = (ts[o + 3]! & 0x20) !== 0 ? o + 5 + ts[o + 4]! : o + 4;
  return start < o + PACKET ? start : undefined;
}

function pcrAt(ts: Buffer, o: number): number | undefined {
  if ((ts[o + 3]! & 0x20) === 0 || ts[o + 4]! < 7 || (ts[o + 5]! & 0x10) === 0) return undefined;
  const base = ts.readUInt32BE(o + 6) * 2 + (ts[o + 10]! >> 7);
  return base * 300 + (((ts[o + 10]! & 1) << 8) | ts[o + 11]!);
}

function sectionAt(ts: Buffer, o: number): Buffer | undefined {
  const start = payloadAt(ts, o);
  if (start === undefined) return undefined;
  const s = ts.subarray(start + 1 + ts[start]!, o + PACKET);
  const length = 3 + (((s[1]! & 0x0f) << 8) | s[2]!);
  return length <= s.length ? s.subarray(0, length) : undefined;
}

function pesDts(ts: Buffer, o: number): number | undefined {
  const p = payloadAt(ts, o);
  if (p === undefined || ts[p] !== 0 || ts[p + 1] !== 0 || ts[p + 2] !== 1) return undefined;
  const flags = ts[p + 7]! >> 6;
  if ((flags & 2) === 0) return undefined;
  return readTimestamp(ts, flags === 3 ? p + 14 : p + 9);
}

function readTimestamp(b: Buffer, o: number): number {
  return (
    ((b[o]! >> 1) & 7) * 2 ** 30 +
    (b[o + 1]! << 22) +
    ((b[o + 2]! >> 1) << 15) +
    (b[o + 3]! << 7) +
    (b[o + 4]! >> 1)
  );
}

/** The signed distance `d` modulo `wrap`, the shortest way round. */
function wrapDiff(d: number, wrap: number): number {
  const m = ((d % wrap) + wrap) % wrap;
  return m > wrap / 2 ? m - wrap : m;
}

function readService(s: Buffer | undefined): TsAnalysis['service'] {
  if (!s || s[0] !== 0x42) return undefined;
  // Header 8 bytes, original_network_id 2, reserved 1; then per service: id 2, flags 1, loop length 2.
  let k = 11;
  const loop = ((s[k + 3]! & 0x0f) << 8) | s[k + 4]!;
  k += 5;
  for (const end = k + loop; k + 2 <= end; k += 2 + s[k + 1]!) {
    if (s[k] !== 0x48) continue;
    const providerLength = s[k + 3]!;
    const provider = s.subarray(k + 4, k + 4 + providerLength);
    const name = s.subarray(k + 5 + providerLength, k + 5 + providerLength + s[k + 4 + providerLength]!);
    return { provider: dvbText(provider), name: dvbText(name) };
  }
  return undefined;
}

function dvbText(b: Buffer): string {
  if (b[0] === 0x15) return b.subarray(1).toString('utf8');
  return b.toString('latin1');
}
