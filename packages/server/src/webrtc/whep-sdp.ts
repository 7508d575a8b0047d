/**
 * What a WHEP player's SDP offer asks for (RFC 8866 lines, RFC 9725 use): its media sections and
 * their codecs. Only as much SDP as choosing codecs needs; werift reads the rest (ICE, DTLS).
 */

/** An offer larger than this is refused before it is read (a browser's is 3–8 KB). */
export const MAX_OFFER_BYTES = 64 * 1024;
/** Media sections a player may offer (a browser asks for one video and one audio). */
const MAX_SECTIONS = 16;

export interface OfferedCodec {
  payloadType: number;
  /** Encoding name as written (H264, opus…). */
  name: string;
  clockRate: number;
  /** The fmtp line's parameters, keys lowercased. */
  params: Record<string, string>;
}

export interface OfferedMedia {
  kind: string;
  /** The m= line's port: 0 rejects the section. */
  port: number;
  direction: 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive';
  codecs: OfferedCodec[];
}

export type ParsedOffer = { media: OfferedMedia[] } | { error: string };

const DIRECTIONS = new Set(['sendrecv', 'sendonly', 'recvonly', 'inactive']);

/** Reads an offer; an error names what is wrong (never throws). */
export function parseOffer(sdp: string): ParsedOffer {
  if (sdp.length > MAX_OFFER_BYTES) return { error: `the offer is over ${MAX_OFFER_BYTES} bytes` };
  const lines = sdp.split(/\r?\n/).filter((line) => line !== '');
  if (lines[0] !== 'v=0') return { error: 'not an SDP offer (it must start with v=0)' };
  const media: OfferedMedia[] = [];
  let current: OfferedMedia | undefined;
  const payloadTypes = new Map<OfferedMedia, Set<number>>();
  for (const line of lines) {
    if (!/^[a-z]=/.test(line)) return { error: `malformed SDP line: ${quote(line)}` };
    if (line.startsWith('m=')) {
      const m = /^m=(\w+) (\d{1,5})(?:\/\d+)? [\w/]+((?: \w+)+)$/.exec(line);
      if (!m) return { error: `malformed media line: ${quote(line)}` };
      if (media.length >= MAX_SECTIONS) return { error: `more than ${MAX_SECTIONS} media sections` };
      current = { kind: m[1]!, port: Number(m[2]), direction: 'sendrecv', codecs: [] };
      const pts = m[3]!.trim().split(' ').map(Number);
      payloadTypes.set(current, new Set(pts.filter((pt) => Number.isInteger(pt) && pt <= 127)));
      media.push(current);
      continue;
    }
    if (!current || !line.startsWith('a=')) continue;
    const attribute = line.slice(2);
    if (DIRECTIONS.has(attribute)) current.direction = attribute as OfferedMedia['direction'];
    const rtpmap = /^rtpmap:(\d{1,3}) ([\w.-]+)\/(\d{1,6})/.exec(attribute);
    if (rtpmap && payloadTypes.get(current)?.has(Number(rtpmap[1]))) {
      current.codecs.push({
        payloadType: Number(rtpmap[1]),
        name: rtpmap[2]!,
        clockRate: Number(rtpmap[3]),
        params: {},
      });
    }
    const fmtp = /^fmtp:(\d{1,3}) (.*)$/.exec(attribute);
    const codec = fmtp && current.codecs.find((c) => c.payloadType === Number(fmtp[1]));
    if (codec) codec.params = fmtpParams(fmtp[2]!);
  }
  if (media.length === 0) return { error: 'the offer has no media section' };
  return { media };
}

function fmtpParams(text: string): Record<string, string> {
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) params[part.slice(0, eq).trim().toLowerCase()] = part.slice(eq + 1).trim();
  }
  return params;
}

/** A peer's text in an error or log line: short, printable. */
function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

export interface CodecChoice {
  /** The offer's H.264 payload type the stream's video goes out with. */
  video?: OfferedCodec;
  /** The offer's Opus payload type. */
  audio?: OfferedCodec;
}

/**
 * The codecs the answer takes: H.264 with packetization-mode 1 (FU-A, for frames larger than a
 * datagram), preferring the profile of the stream (`profileIdc`, e.g. 0x64 High) and otherwise
 * constrained baseline, and Opus. Browsers decode any profile whatever was negotiated (Chromium
 * offers no High profile, and plays it), so the profile only ranks. An error when the offer asks
 * for video without H.264 (the video is passed through, never re-encoded) or has neither.
 */
export function chooseCodecs(media: OfferedMedia[], profileIdc?: number): CodecChoice | { error: string } {
  const wanted = media.filter((m) => m.port !== 0 && m.direction !== 'inactive');
  const video = wanted.find((m) => m.kind === 'video');
  const audio = wanted.find((m) => m.kind === 'audio');
  if (!video && !audio) return { error: 'the offer asks for no audio or video' };
  const choice: CodecChoice = {};
  if (video) {
    const h264 = video.codecs.filter(
      (c) =>
        c.name.toUpperCase() === 'H264' && c.clockRate === 90000 && c.params['packetization-mode'] === '1',
    );
    if (h264.length === 0) return { error: 'the offer has no H.264 video (packetization-mode=1)' };
    const profile = (c: OfferedCodec) => parseInt((c.params['profile-level-id'] ?? '').slice(0, 2), 16);
    choice.video =
      h264.find((c) => profileIdc !== undefined && profile(c) === profileIdc) ??
      h264.find((c) => (c.params['profile-level-id'] ?? '').toLowerCase().startsWith('42e0')) ??
      h264[0];
  }
  if (audio) {
    const opus = audio.codecs.find((c) => c.name.toLowerCase() === 'opus' && c.clockRate === 48000);
    if (!opus) return { error: 'the offer has no Opus audio' };
    choice.audio = opus;
  }
  return choice;
}

/**
 * The offer with each audio and video section reduced to the chosen codec: werift takes every
 * offered codec of a matching name and sends with the first, which could be the wrong H.264
 * (packetization-mode 0) — left with one, the answer names exactly what is sent.
 */
export function restrictOffer(sdp: string, choice: CodecChoice): string {
  const lines = sdp.split(/\r?\n/);
  let keep: number | undefined;
  const out: string[] = [];
  for (const line of lines) {
    const m = /^m=(\w+) (\S+) (\S+) /.exec(line);
    if (m) {
      const chosen = m[1] === 'video' ? choice.video : m[1] === 'audio' ? choice.audio : undefined;
      keep = chosen?.payloadType;
      out.push(keep === undefined ? line : `m=${m[1]} ${m[2]} ${m[3]} ${keep}`);
      continue;
    }
    const pt = /^a=(?:rtpmap|fmtp|rtcp-fb):(\d+)[ ]/.exec(line);
    if (keep !== undefined && pt && Number(pt[1]) !== keep) continue;
    // Sections other than audio and video pass as they are (keep undefined).
    out.push(line);
  }
  return out.join('\r\n');
}
