/**
 * A publisher's SDP offer, checked and narrowed before werift sees it: one audio and at most one
 * video section, each kept to the one codec Sluice takes from it. werift answers with every offered
 * codec whose name it knows, in the offer's order, and the browser then sends the first — so the
 * choice (H.264 over VP8, packetization-mode 1, constrained baseline) is made here, in the offer.
 */

/** An offer larger than this is refused unread: a browser's is 5–15 KB with its candidates. */
export const MAX_OFFER_BYTES = 64 * 1024;
/** More lines than a real offer holds (a few hundred) are refused: bounds the work per offer. */
const MAX_LINES = 2000;

/** Whether the text holds control characters other than tab and the line ends (CR, LF). */
export function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return true;
  }
  return false;
}

export type VideoCodec = 'H264' | 'VP8';

/** The codec taken from one section of the offer, as ffmpeg and the RTP forwarder need it. */
export interface ChosenCodec {
  payloadType: number;
  codec: VideoCodec | 'opus';
  clockRate: number;
  channels?: number;
  /** The offer's fmtp line for it (H.264: packetization-mode, profile-level-id). */
  fmtp?: string;
}

export interface OfferCodecs {
  video?: ChosenCodec;
  audio?: ChosenCodec;
  /** The offer with only the chosen codecs left in each section: what werift is given. */
  sdp: string;
}

/** Why an offer is refused, and whether it was unreadable (400) or read but of no use (422). */
export interface OfferRefusal {
  refused: string;
  status: 400 | 422;
}

interface Format {
  payloadType: number;
  name: string;
  clockRate: number;
  channels?: number;
  fmtp?: string;
}

/** The offer's sections, each a list of lines; the first is the session part. */
function sections(lines: string[]): string[][] {
  const out: string[][] = [[]];
  for (const line of lines) {
    if (line.startsWith('m=')) out.push([]);
    out[out.length - 1]!.push(line);
  }
  return out;
}

function formatsOf(section: string[], payloadTypes: number[]): Format[] {
  const formats = new Map<number, Format>();
  for (const line of section) {
    const map = /^a=rtpmap:(\d{1,3}) ([A-Za-z0-9_.-]{1,32})\/(\d{1,6})(?:\/(\d{1,2}))?$/.exec(line);
    if (map) {
      const payloadType = Number(map[1]);
      formats.set(payloadType, {
        payloadType,
        name: map[2]!,
        clockRate: Number(map[3]),
        channels: map[4] ? Number(map[4]) : undefined,
      });
    }
  }
  for (const line of section) {
    const fmtp = /^a=fmtp:(\d{1,3}) (.{1,512})$/.exec(line);
    const format = fmtp && formats.get(Number(fmtp[1]));
    if (format) format.fmtp = fmtp[2];
  }
  return payloadTypes.map((pt) => formats.get(pt)).filter((f): f is Format => f !== undefined);
}

/** One fmtp parameter's value (case-insensitive name), or undefined. */
export function fmtpParameter(fmtp: string | undefined, name: string): string | undefined {
  for (const part of (fmtp ?? '').split(';')) {
    const [key, value] = part.split('=');
    if (key?.trim().toLowerCase() === name) return value?.trim();
  }
  return undefined;
}

/**
 * How much an H.264 format suits passthrough: packetization-mode 1 (large frames in fragments)
 * over 0, then constrained baseline 42e01f (no B-frames, what every decoder takes).
 */
function h264Rank(format: Format): number {
  const mode = fmtpParameter(format.fmtp, 'packetization-mode') ?? '0';
  const profile = (fmtpParameter(format.fmtp, 'profile-level-id') ?? '').toLowerCase();
  if (mode !== '0' && mode !== '1') return -1;
  return (mode === '1' ? 4 : 0) + (profile === '42e01f' ? 2 : profile.startsWith('42') ? 1 : 0);
}

function chooseVideo(formats: Format[]): Format | undefined {
  const h264 = formats
    .filter((f) => f.name.toUpperCase() === 'H264' && f.clockRate === 90000 && h264Rank(f) >= 0)
    .sort((a, b) => h264Rank(b) - h264Rank(a))[0];
  return h264 ?? formats.find((f) => f.name.toUpperCase() === 'VP8' && f.clockRate === 90000);
}

const chooseAudio = (formats: Format[]) =>
  formats.find((f) => f.name.toLowerCase() === 'opus' && f.clockRate === 48000);

/** The section with only `pt` left on its m= line and in its rtpmap, fmtp and rtcp-fb lines. */
function narrowed(section: string[], pt: number): string[] {
  const [mline, ...rest] = section;
  const fields = mline!.split(' ');
  const kept = rest.filter((line) => {
    const of = /^a=(?:rtpmap|fmtp|rtcp-fb):(\d+|\*)[ ]/.exec(line);
    return !of || of[1] === '*' || Number(of[1]) === pt;
  });
  return [[...fields.slice(0, 3), String(pt)].join(' '), ...kept];
}

const names = (formats: Format[]) => [...new Set(formats.map((f) => f.name))].join(', ') || 'none';

/**
 * Checks the offer and keeps one codec per section: H.264 (passed through) or else VP8 (encoded
 * to H.264) for video, Opus for audio. Refuses what Sluice can't take with the reason said plainly.
 */
export function offerCodecs(offer: string): OfferCodecs | OfferRefusal {
  const bad = (why: string): OfferRefusal => ({ refused: `malformed SDP offer: ${why}`, status: 400 });
  if (Buffer.byteLength(offer) > MAX_OFFER_BYTES) return bad(`larger than ${MAX_OFFER_BYTES} bytes`);
  // SDP is text; control characters (other than the line ends) have no place in it.
  if (hasControlCharacters(offer)) return bad('control characters in the text');
  const lines = offer.split(/\r?\n/).filter((line) => line !== '');
  if (lines[0] !== 'v=0') return bad('it does not start with v=0');
  if (lines.length > MAX_LINES) return bad(`more than ${MAX_LINES} lines`);
  if (lines.some((line) => !/^[a-z]=/.test(line))) return bad('a line is not of the form x=…');
  const [session, ...media] = sections(lines);
  if (media.length === 0) return bad('no m= section (no audio or video)');
  const out: string[][] = [session!];
  const chosen: { video?: ChosenCodec; audio?: ChosenCodec } = {};
  for (const section of media) {
    const m = /^m=([a-z]{1,16}) (\d{1,5})(?:\/\d+)? ([A-Za-z/]{1,32}) (.{1,400})$/.exec(section[0]!);
    if (!m) return bad(`unreadable media line "${section[0]!.slice(0, 80)}"`);
    const kind = m[1]!;
    if (kind !== 'audio' && kind !== 'video')
      return { refused: `the offer has a ${kind} section; WHIP takes audio and video only`, status: 422 };
    if (chosen[kind]) return { refused: `the offer has more than one ${kind} section`, status: 422 };
    if (!/^\d{1,3}(?: \d{1,3}){0,63}$/.test(m[4]!))
      return bad(`unreadable ${kind} formats "${m[4]!.slice(0, 80)}"`);
    const formats = formatsOf(section, m[4]!.trim().split(' ').map(Number));
    const format = kind === 'video' ? chooseVideo(formats) : chooseAudio(formats);
    if (!format) {
      const wanted = kind === 'video' ? 'H264 or VP8' : 'Opus';
      return {
        refused: `no usable ${kind} codec in the offer (offered: ${names(formats)}; Sluice takes ${wanted})`,
        status: 422,
      };
    }
    chosen[kind] = {
      payloadType: format.payloadType,
      codec: kind === 'audio' ? 'opus' : (format.name.toUpperCase() as VideoCodec),
      clockRate: format.clockRate,
      channels: kind === 'audio' ? (format.channels ?? 2) : undefined,
      fmtp: format.fmtp,
    };
    out.push(narrowed(section, format.payloadType));
  }
  return { ...chosen, sdp: `${out.flat().join('\r\n')}\r\n` };
}
