import type { PmtStream } from './psi.js';
import type { VideoCodec } from './video-probe.js';

export type Content = 'video' | 'audio' | 'text' | 'metadata';

export interface StreamKind {
  content: Content;
  /** The codec name media_info reports (Flussonic's names: h264, hevc, mp2v, aac, mp2a, mp3, ac3…). */
  codec: string;
  video?: VideoCodec;
  audio?: 'adts' | 'mpeg' | 'ac3';
}

/** What a PMT stream entry carries (ISO 13818-1 Table 2-34, and the DVB/ATSC private types). */
export function classifyStream(stream: PmtStream): StreamKind | undefined {
  switch (stream.streamType) {
    case 0x01:
    case 0x02:
      return { content: 'video', codec: 'mp2v', video: 'mp2v' };
    case 0x1b:
      return { content: 'video', codec: 'h264', video: 'h264' };
    case 0x24:
      return { content: 'video', codec: 'hevc', video: 'hevc' };
    case 0x03:
    case 0x04:
      return { content: 'audio', codec: 'mp2a', audio: 'mpeg' };
    case 0x0f:
      return { content: 'audio', codec: 'aac', audio: 'adts' };
    case 0x11:
      return { content: 'audio', codec: 'aac' };
    case 0x81:
      return { content: 'audio', codec: 'ac3', audio: 'ac3' };
    case 0x87:
      return { content: 'audio', codec: 'eac3' };
    case 0x15:
      return { content: 'metadata', codec: 'id3' };
    case 0x86:
      return { content: 'metadata', codec: 'scte35' };
    case 0x06:
      return classifyPrivate(stream);
    default:
      return undefined;
  }
}

/** PES private data: the descriptors say what it is (EN 300 468 §6.2). */
function classifyPrivate(stream: PmtStream): StreamKind | undefined {
  const tags = stream.descriptorTags;
  if (tags.includes(0x6a)) return { content: 'audio', codec: 'ac3', audio: 'ac3' };
  if (tags.includes(0x7a)) return { content: 'audio', codec: 'eac3' };
  if (stream.registration === 'Opus') return { content: 'audio', codec: 'opus' };
  if (tags.includes(0x59)) return { content: 'text', codec: 'dvbsub' };
  if (tags.includes(0x56)) return { content: 'text', codec: 'teletext' };
  return undefined;
}
