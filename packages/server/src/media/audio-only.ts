import { keepStreams, withSection } from './program-filter.js';
import { parsePat, parsePmt, SectionAssembler } from './psi.js';
import { classifyStream } from './stream-types.js';
import { NULL_PID, PACKET_SIZE, PAT_PID, payloadOffset, pidOf, startsUnit } from './ts-packet.js';

/** Each segment's audio-only copy, made once (segments never change once cut). */
const made = new WeakMap<Buffer, Buffer>();

/**
 * The audio rendition of an HLS segment (add_audio_only): the PAT, a PMT listing the audio streams
 * alone (with no PCR PID: the video's PCR leaves with the video, and players time audio by its
 * PTS), and the audio packets; everything else is left out. A segment starts with its tables, so
 * nothing before them is lost.
 */
export function audioOnlySegment(data: Buffer): Buffer {
  const cached = made.get(data);
  if (cached) return cached;
  const patSections = new SectionAssembler();
  const pmtSections = new SectionAssembler();
  let pmtPid: number | undefined;
  let audio = new Set<number>();
  let pmt: Buffer | undefined;
  const kept: Buffer[] = [];
  for (let o = 0; o + PACKET_SIZE <= data.length; o += PACKET_SIZE) {
    const packet = data.subarray(o, o + PACKET_SIZE);
    const pid = pidOf(packet, 0);
    const start = payloadOffset(packet, 0);
    if (pid === PAT_PID) {
      const section =
        start >= 0 ? patSections.push(packet.subarray(start), startsUnit(packet, 0)) : undefined;
      pmtPid = (section && parsePat(section)?.[0]?.pmtPid) ?? pmtPid;
      kept.push(packet);
    } else if (pid === pmtPid) {
      const section =
        start >= 0 ? pmtSections.push(packet.subarray(start), startsUnit(packet, 0)) : undefined;
      const table = section && parsePmt(section);
      if (section && table) {
        audio = new Set(
          table.streams.filter((s) => classifyStream(s)?.content === 'audio').map((s) => s.pid),
        );
        pmt = audioTable(section, audio);
      }
      if (pmt && startsUnit(packet, 0)) kept.push(withSection(packet, pmt));
    } else if (audio.has(pid)) {
      kept.push(packet);
    }
  }
  const out = Buffer.concat(kept);
  made.set(data, out);
  return out;
}

/** The PMT section listing only the `audio` PIDs, PCR_PID set to none; undefined when it won't fit one packet. */
function audioTable(section: Buffer, audio: ReadonlySet<number>): Buffer | undefined {
  return keepStreams(section, audio, NULL_PID);
}
