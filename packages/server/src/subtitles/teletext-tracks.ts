import { parsePat, parsePmt, SectionAssembler } from '../media/psi.js';
import { classifyStream } from '../media/stream-types.js';
import { PACKET_SIZE, PAT_PID, payloadOffset, pidOf, readPesHeader, startsUnit } from '../media/ts-packet.js';

/** A teletext subtitle page of the stream: what one WebVTT rendition is made from. */
export interface TeletextTrack {
  pid: number;
  /** ISO 639-2 code from the teletext descriptor, lower case: the rendition's LANGUAGE and URI. */
  lang: string;
  /** The page ffmpeg's libzvbi decodes (`-txt_page`), e.g. 888. */
  page: number;
}

export interface SegmentTracks {
  tracks: TeletextTrack[];
  /** The PTS (90 kHz) of the segment's first video PES: what its WebVTT timestamp map points at. */
  videoPts: number | undefined;
}

/** EN 300 468 §6.2.43 teletext_type: 2 subtitle page, 5 subtitle page for the hearing impaired. */
const SUBTITLE_PAGE_TYPES = new Set([2, 5]);
const TELETEXT_DESCRIPTOR = 0x56;

/** Read once per segment: segments never change once cut. */
const read = new WeakMap<Buffer, SegmentTracks>();

/**
 * The teletext subtitle pages a segment's PMT lists (a segment starts with its tables) and its
 * first video PTS. One rendition per language: the first page listed for it.
 */
export function segmentTracks(data: Buffer): SegmentTracks {
  const cached = read.get(data);
  if (cached) return cached;
  const pat = new SectionAssembler();
  const pmt = new SectionAssembler();
  let pmtPid: number | undefined;
  let videoPid: number | undefined;
  let tracks: TeletextTrack[] | undefined;
  let videoPts: number | undefined;
  for (let o = 0; o + PACKET_SIZE <= data.length && videoPts === undefined; o += PACKET_SIZE) {
    const packet = data.subarray(o, o + PACKET_SIZE);
    const pid = pidOf(packet, 0);
    const start = payloadOffset(packet, 0);
    if (start < 0) continue;
    const unitStart = startsUnit(packet, 0);
    if (pid === PAT_PID && pmtPid === undefined) {
      const section = pat.push(packet.subarray(start), unitStart);
      pmtPid = section ? parsePat(section)?.[0]?.pmtPid : undefined;
    } else if (pid === pmtPid && tracks === undefined) {
      const section = pmt.push(packet.subarray(start), unitStart);
      const table = section ? parsePmt(section) : undefined;
      if (!section || !table) continue;
      videoPid = table.streams.find((s) => classifyStream(s)?.content === 'video')?.pid;
      tracks = teletextTracks(section);
      // Read on without tracks too: an empty WebVTT segment (an ad's) still needs its video clock.
      if (videoPid === undefined) break;
    } else if (pid === videoPid && unitStart) {
      videoPts = readPesHeader(packet, start, PACKET_SIZE)?.pts;
    }
  }
  const found = { tracks: videoPid === undefined ? [] : (tracks ?? []), videoPts };
  read.set(data, found);
  return found;
}

/** The subtitle pages of a PMT section's teletext descriptors (EN 300 468 §6.2.43). */
function teletextTracks(section: Buffer): TeletextTrack[] {
  const tracks: TeletextTrack[] = [];
  const programInfoLength = ((section[10]! & 0x0f) << 8) | section[11]!;
  const end = section.length - 4;
  for (let i = 12 + programInfoLength; i + 5 <= end;) {
    const pid = ((section[i + 1]! & 0x1f) << 8) | section[i + 2]!;
    const infoEnd = Math.min(end, i + 5 + (((section[i + 3]! & 0x0f) << 8) | section[i + 4]!));
    for (let d = i + 5; d + 2 <= infoEnd; d += 2 + section[d + 1]!) {
      if (section[d] !== TELETEXT_DESCRIPTOR) continue;
      const bodyEnd = Math.min(infoEnd, d + 2 + section[d + 1]!);
      for (let e = d + 2; e + 5 <= bodyEnd; e += 5) {
        const lang = section
          .subarray(e, e + 3)
          .toString('latin1')
          .toLowerCase();
        const type = section[e + 3]! >> 3;
        const magazine = section[e + 3]! & 7 || 8;
        const page = section[e + 4]!;
        if (!/^[a-z]{3}$/.test(lang) || !SUBTITLE_PAGE_TYPES.has(type)) continue;
        if (tracks.some((t) => t.lang === lang)) continue;
        // The page number's two digits are hex nibbles (BCD for a decimal page).
        tracks.push({ pid, lang, page: magazine * 100 + (page >> 4) * 10 + (page & 15) });
      }
    }
    i = infoEnd;
  }
  return tracks;
}
