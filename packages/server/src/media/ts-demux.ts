import type { MediaInfo, Track } from '@sluice/api';
import { type AudioHeader, parseAc3, parseAdts, parseMpegAudio } from './audio-headers.js';
import { type Pmt, parsePat, parsePmt, SectionAssembler } from './psi.js';
import { PsiCopy } from './psi-copy.js';
import { SDT_PID } from './ts-tables.js';
import { RateWindow } from './rate-window.js';
import { classifyStream, type StreamKind } from './stream-types.js';
import { parameterSetPackets } from './parameter-sets.js';
import {
  continuityOf,
  hasPayload,
  isDiscontinuity,
  isRandomAccess,
  NULL_PID,
  PACKET_SIZE,
  PAT_PID,
  payloadOffset,
  pidOf,
  readPesHeader,
  startsUnit,
  TS_CLOCK,
  tsDiff,
} from './ts-packet.js';
import { type AccessUnitProbe, type VideoHeader, VideoProbe } from './video-probe.js';

/** One decided access unit of the primary track: where HLS may cut, and the clock it runs on. */
export interface Frame {
  keyframe: boolean;
  /** DTS in 90 kHz ticks (PTS when the PES has no DTS). */
  dts: number | undefined;
  /**
   * TS packets carrying the parameter sets (SPS/PPS…) this keyframe came without, to go right
   * before its first packet where a segment starts with it; undefined when it carries its own.
   */
  parameterSets?: Buffer;
}

/** A video access unit begun and not yet decided: what its first packet said. */
interface PendingUnit {
  dts: number | undefined;
  pts: number | undefined;
  continuity: number;
  streamId: number;
}

interface DemuxTrack {
  pid: number;
  id: string;
  kind: StreamKind;
  lang: string | undefined;
  bytes: RateWindow;
  probe: VideoProbe | undefined;
  /** Access units begun but not yet decided, oldest first. */
  pending: PendingUnit[];
  video: VideoHeader | undefined;
  audio: AudioHeader | undefined;
  /** Recent DTS values, for the frame rate. */
  recentDts: number[];
}

/** Packets of DTS history the frame rate is measured over. */
const FPS_SAMPLES = 50;

/**
 * Follows an MPEG-TS stream packet by packet: the program tables, each track's codec headers,
 * continuity errors, per-track bytes, and, for the primary track (the first video, else the first
 * audio), each access unit's keyframe flag and DTS, queued in `frames` for the segmenter.
 */
export class TsDemux {
  readonly frames: Frame[] = [];
  primaryPid: number | undefined;
  /** Continuity counter errors since the start (ISO 13818-1 §2.4.3.3). */
  readonly errors = new RateWindow(1);
  /** Bumped whenever tracks or their headers change, so readers know to look again. */
  tracksVersion = 0;
  /** The DTS of the newest primary access unit (90 kHz). */
  lastDts: number | undefined;
  /** The latest PAT, PMT and SDT, renumbered to open a segment or a client's stream with (see PsiCopy). */
  get psiPackets(): Buffer {
    return this.psiCopy.packets(this.pmtPid, this.frames.length);
  }

  private readonly tracksByPid = new Map<number, DemuxTrack>();
  private readonly continuity = new Map<number, number>();
  private readonly patSections = new SectionAssembler();
  private readonly pmtSections = new SectionAssembler();
  private pmtPid: number | undefined;
  private pmtKey = '';
  private lastPat: Buffer | undefined;
  private lastPmt: Buffer | undefined;
  private readonly psiCopy = new PsiCopy();
  private now = 0;

  constructor(private readonly program?: number) {}

  /** Reads every packet of an aligned chunk; `nowMs` stamps the per-second counters. */
  pushChunk(chunk: Buffer, nowMs: number): void {
    this.now = nowMs;
    for (let o = 0; o + PACKET_SIZE <= chunk.length; o += PACKET_SIZE) this.push(chunk, o);
  }

  /** Forgets continuity state: after a source switch a jump in the counters is expected. */
  resetContinuity(): void {
    this.continuity.clear();
  }

  tracks(nowMs: number): Track[] {
    const out: Track[] = [];
    for (const t of this.tracksByPid.values()) {
      const track: Track = { track_id: t.id, content: t.kind.content, codec: t.kind.codec };
      if (t.lang) track.lang = t.lang;
      track.bitrate = Math.round((t.bytes.perSecond(nowMs) * 8) / 1000);
      if (t.video) Object.assign(track, { width: t.video.width, height: t.video.height });
      if (t.video?.profile) track.profile = t.video.profile;
      if (t.video?.level) track.level = t.video.level;
      const fps = frameRate(t.recentDts);
      if (fps) track.fps = fps;
      if (t.audio) Object.assign(track, { channels: t.audio.channels, sample_rate: t.audio.sampleRate });
      if (t.audio?.profile) track.profile = t.audio.profile;
      out.push(track);
    }
    return out;
  }

  mediaInfo(nowMs: number): MediaInfo {
    const tracks = this.tracks(nowMs);
    const video = tracks.find((t) => t.content === 'video' && t.width);
    return video ? { width: video.width, height: video.height, tracks } : { tracks };
  }

  /** RFC 6381 codec strings of the tracks, for the HLS master playlist; empty unless all are known. */
  codecStrings(): string[] {
    const out: string[] = [];
    for (const t of this.tracksByPid.values()) {
      if (t.kind.content !== 'video' && t.kind.content !== 'audio') continue;
      const known =
        t.video?.codecString ?? (t.audio?.objectType ? `mp4a.40.${t.audio.objectType}` : undefined);
      // A partial list would tell players a track is not there: better none (CODECS is optional).
      if (!known) return [];
      out.push(known);
    }
    return out;
  }

  /** The primary video size, for the HLS master playlist. */
  get resolution(): { width: number; height: number } | undefined {
    const t = this.primaryPid === undefined ? undefined : this.tracksByPid.get(this.primaryPid);
    return t?.video ? { width: t.video.width, height: t.video.height } : undefined;
  }

  private push(b: Buffer, o: number): void {
    const pid = pidOf(b, o);
    if (pid === NULL_PID) return;
    this.checkContinuity(b, o, pid);
    const start = payloadOffset(b, o);
    if (start < 0) return;
    const unitStart = startsUnit(b, o);
    const payload = b.subarray(start, o + PACKET_SIZE);
    if (pid === PAT_PID || pid === this.pmtPid || pid === SDT_PID) {
      this.psiCopy.notePacket(b, o, pid, payload, unitStart);
    }
    if (pid === PAT_PID) {
      const section = this.patSections.push(payload, unitStart);
      // The tables repeat about ten times a second, nearly always unchanged: only a change is read.
      if (section && !this.lastPat?.equals(section)) {
        this.lastPat = Buffer.from(section);
        this.psiCopy.setPat(this.lastPat);
        this.onPat(section);
      }
      return;
    }
    if (pid === this.pmtPid) {
      const section = this.pmtSections.push(payload, unitStart);
      if (section && !this.lastPmt?.equals(section)) {
        this.lastPmt = Buffer.from(section);
        this.psiCopy.setPmt(pid, this.lastPmt);
        const pmt = parsePmt(section);
        if (pmt) this.onPmt(pmt);
      }
      return;
    }
    const track = this.tracksByPid.get(pid);
    if (!track) return;
    track.bytes.add(PACKET_SIZE, this.now);
    if (!unitStart) {
      track.probe?.more(payload);
      return;
    }
    const pes = readPesHeader(b, start, o + PACKET_SIZE);
    if (!pes) return;
    const data = b.subarray(pes.dataOffset, o + PACKET_SIZE);
    if (pid === this.primaryPid) this.psiCopy.unitBegun();
    if (track.probe) {
      track.pending.push({
        dts: pes.dts,
        pts: pes.pts,
        continuity: continuityOf(b, o),
        streamId: b[start + 3]!,
      });
      track.probe.begin(data, isRandomAccess(b, o));
    } else {
      this.onAudio(track, data, pes.dts);
    }
  }

  private checkContinuity(b: Buffer, o: number, pid: number): void {
    if (!hasPayload(b, o)) return;
    const cc = continuityOf(b, o);
    const previous = this.continuity.get(pid);
    this.continuity.set(pid, cc);
    if (previous === undefined || isDiscontinuity(b, o)) return;
    // One repeated packet (same counter) is allowed; anything else off by one is a loss.
    if (cc !== ((previous + 1) & 0x0f) && cc !== previous) this.errors.add(1, this.now);
  }

  private onPat(section: Buffer): void {
    const programs = parsePat(section);
    const chosen = programs?.find((p) => this.program === undefined || p.program === this.program);
    if (!chosen || chosen.pmtPid === this.pmtPid) return;
    this.pmtPid = chosen.pmtPid;
    this.pmtKey = '';
    this.lastPmt = undefined;
  }

  private onPmt(pmt: Pmt): void {
    const key = JSON.stringify(pmt.streams);
    if (key === this.pmtKey) return;
    this.pmtKey = key;
    const previous = new Map(this.tracksByPid);
    this.tracksByPid.clear();
    const counts: Record<string, number> = {};
    for (const stream of pmt.streams) {
      const kind = classifyStream(stream);
      if (!kind) continue;
      const prefix = { video: 'v', audio: 'a', text: 't', metadata: 'd' }[kind.content];
      counts[prefix] = (counts[prefix] ?? 0) + 1;
      const old = previous.get(stream.pid);
      const same = old && old.kind.codec === kind.codec;
      this.tracksByPid.set(stream.pid, {
        pid: stream.pid,
        id: `${prefix}${counts[prefix]}`,
        kind,
        lang: stream.lang,
        bytes: same ? old.bytes : new RateWindow(),
        probe: kind.video ? new VideoProbe(kind.video, (p) => this.onVideoUnit(stream.pid, p)) : undefined,
        pending: [],
        video: same ? old.video : undefined,
        audio: same ? old.audio : undefined,
        recentDts: [],
      });
    }
    const tracks = [...this.tracksByPid.values()];
    const primary = tracks.find((t) => t.kind.video) ?? tracks.find((t) => t.kind.content === 'audio');
    this.primaryPid = primary?.pid;
    this.frames.length = 0;
    this.psiCopy.resetUnits();
    this.tracksVersion++;
  }

  private onVideoUnit(pid: number, probe: AccessUnitProbe): void {
    const track = this.tracksByPid.get(pid);
    if (!track) return;
    const unit = track.pending.shift();
    if (probe.header !== track.video) {
      track.video = probe.header;
      this.tracksVersion++;
    }
    const sets =
      unit && probe.parameterSets && pid === this.primaryPid
        ? parameterSetPackets(probe.parameterSets, { pid, ...unit })
        : undefined;
    this.onUnit(track, probe.keyframe, unit?.dts, sets);
  }

  private onAudio(track: DemuxTrack, data: Buffer, dts: number | undefined): void {
    if (!track.audio) {
      const parse = { adts: parseAdts, mpeg: parseMpegAudio, ac3: parseAc3 }[track.kind.audio ?? 'adts'];
      const header = track.kind.audio ? parse(data) : undefined;
      if (header) {
        track.audio = header;
        // MPEG audio layer III is MP3, which the stream type alone does not tell.
        if (header.codec !== track.kind.codec) track.kind = { ...track.kind, codec: header.codec };
        this.tracksVersion++;
      }
    }
    // Every audio frame can start a segment when there is no video.
    this.onUnit(track, true, dts);
  }

  private onUnit(
    track: DemuxTrack,
    keyframe: boolean,
    dts: number | undefined,
    parameterSets?: Buffer,
  ): void {
    if (dts !== undefined && track.kind.content === 'video') {
      track.recentDts.push(dts);
      if (track.recentDts.length > FPS_SAMPLES) track.recentDts.shift();
    }
    if (track.pid !== this.primaryPid) return;
    this.psiCopy.unitDecided(this.frames.length);
    if (dts !== undefined) this.lastDts = dts;
    this.frames.push(parameterSets ? { keyframe, dts, parameterSets } : { keyframe, dts });
  }
}

/** Frames per second from decode timestamps, rounded to hundredths; undefined until measurable. */
function frameRate(dts: number[]): number | undefined {
  if (dts.length < 3) return undefined;
  const span = tsDiff(dts[dts.length - 1]!, dts[0]!);
  if (span <= 0) return undefined;
  return Math.round(((dts.length - 1) * TS_CLOCK * 100) / span) / 100;
}
