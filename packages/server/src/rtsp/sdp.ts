import type { VideoCodec } from './ts-units.js';

/** A publisher's track, as its ANNOUNCE SDP describes it (RFC 4566; fmtp per RFC 6184/7798/3640). */
export type AnnouncedTrack =
  | {
      kind: 'video';
      codec: VideoCodec;
      control: string;
      payloadType: number;
      /** Parameter sets from sprop-parameter-sets / sprop-vps,sps,pps, start codes removed. */
      parameterSets: Buffer[];
    }
  | {
      kind: 'audio';
      codec: 'aac';
      control: string;
      payloadType: number;
      clockRate: number;
      objectType: number;
      frequencyIndex: number;
      channels: number;
      sizeLength: number;
      indexLength: number;
      /** mpeg4-generic (RFC 3640) or MP4A-LATM with cpresent=0 (RFC 3016, what GStreamer sends). */
      format: 'generic' | 'latm';
    };

const MAX_TRACKS = 8;

/**
 * The tracks of an ANNOUNCE: H.264, HEVC and AAC (mpeg4-generic) are taken; other media sections
 * are left out. Throws with what is wrong when nothing usable is left, so the ANNOUNCE is refused.
 */
export function parseAnnounce(sdp: string): AnnouncedTrack[] {
  if (!/^v=0\r?$/m.test(sdp)) throw new Error('not an SDP (no v=0)');
  const sections = sdp.split(/\r?\n(?=m=)/).slice(1);
  if (sections.length > MAX_TRACKS) throw new Error(`over ${MAX_TRACKS} media sections`);
  const tracks: AnnouncedTrack[] = [];
  sections.forEach((section, index) => {
    const m = /^m=(video|audio) \d+ RTP\/AVP (\d{1,3})/.exec(section);
    if (!m) return;
    const payloadType = Number(m[2]);
    const attribute = (name: string) =>
      new RegExp(`^a=${name}:${payloadType} (.*?)\\r?$`, 'm').exec(section)?.[1]?.trim();
    const rtpmap = attribute('rtpmap')?.toUpperCase() ?? '';
    const fmtp = fmtpValues(attribute('fmtp') ?? '');
    const control = /^a=control:(.*?)\r?$/m.exec(section)?.[1]?.trim() ?? `trackID=${index}`;
    if (m[1] === 'video' && (rtpmap.startsWith('H264/') || rtpmap.startsWith('H265/'))) {
      const codec = rtpmap.startsWith('H264/') ? 'h264' : 'hevc';
      const sets =
        codec === 'h264'
          ? (fmtp.get('sprop-parameter-sets') ?? '').split(',')
          : ['sprop-vps', 'sprop-sps', 'sprop-pps'].flatMap((k) => (fmtp.get(k) ?? '').split(','));
      const parameterSets = sets.filter((s) => s.length > 0).map((s) => Buffer.from(s, 'base64'));
      tracks.push({ kind: 'video', codec, control, payloadType, parameterSets });
    }
    if (m[1] === 'audio' && rtpmap.startsWith('MPEG4-GENERIC/')) {
      const config = audioConfig(fmtp.get('config') ?? '');
      const sizeLength = Number(fmtp.get('sizelength') ?? 13);
      const indexLength = Number(fmtp.get('indexlength') ?? 3);
      if (!config || !(sizeLength > 0 && sizeLength <= 16) || !(indexLength >= 0 && indexLength <= 8)) return;
      const clockRate = Number(rtpmap.split('/')[1]) || 90000;
      tracks.push({
        kind: 'audio',
        codec: 'aac',
        control,
        payloadType,
        clockRate,
        sizeLength,
        indexLength,
        format: 'generic',
        ...config,
      });
    }
    if (m[1] === 'audio' && rtpmap.startsWith('MP4A-LATM/') && fmtp.get('cpresent') === '0') {
      const config = latmConfig(fmtp.get('config') ?? '');
      const clockRate = Number(rtpmap.split('/')[1]) || 90000;
      if (config)
        tracks.push({
          kind: 'audio',
          codec: 'aac',
          control,
          payloadType,
          clockRate,
          sizeLength: 0,
          indexLength: 0,
          format: 'latm',
          ...config,
        });
    }
  });
  const video = tracks.find((t) => t.kind === 'video');
  const audio = tracks.find((t) => t.kind === 'audio');
  const usable = [video, audio].filter((t) => t !== undefined);
  if (usable.length === 0) throw new Error('no H.264, HEVC or AAC (mpeg4-generic, MP4A-LATM) track');
  return usable;
}

function fmtpValues(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) values.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  return values;
}

/**
 * The AudioSpecificConfig inside a StreamMuxConfig (ISO 14496-3 §1.7.3) of audioMuxVersion 0,
 * one program, one layer: it starts at bit 15.
 */
function latmConfig(
  hex: string,
): { objectType: number; frequencyIndex: number; channels: number } | undefined {
  if (!/^[0-9a-f]{8,}$/i.test(hex)) return undefined;
  const bits = parseInt(hex.slice(0, 8), 16) >>> 0;
  // audioMuxVersion 0; numSubFrames, numProgram and numLayer 0 (allStreamsSameTimeFraming either way).
  if (bits >>> 31 !== 0 || ((bits >>> 17) & 0x1fff) !== 0) return undefined;
  const asc = ((bits >>> 4) & 0x1fff) << 3;
  return audioConfig(asc.toString(16).padStart(4, '0'));
}

/** AudioSpecificConfig (hex) to the fields an ADTS header needs; AAC object types 1–4 only. */
function audioConfig(
  hex: string,
): { objectType: number; frequencyIndex: number; channels: number } | undefined {
  if (!/^[0-9a-f]{4,}$/i.test(hex)) return undefined;
  const bits = parseInt(hex.slice(0, 4), 16);
  const objectType = bits >> 11;
  const frequencyIndex = (bits >> 7) & 0x0f;
  const channels = (bits >> 3) & 0x0f;
  if (objectType < 1 || objectType > 4 || frequencyIndex > 12 || channels < 1 || channels > 7)
    return undefined;
  return { objectType, frequencyIndex, channels };
}

/** A track as a DESCRIBE answer lists it. */
export type DescribedTrack =
  | { kind: 'video'; codec: VideoCodec; payloadType: number; parameterSets: Buffer[] }
  | { kind: 'audio'; payloadType: number; sampleRate: number; channels: number; config: string };

/** The SDP of a DESCRIBE answer: one media section per track, control `trackID=N` (N its index). */
export function describeSdp(name: string, tracks: readonly DescribedTrack[], sessionId: string): string {
  const lines = [
    'v=0',
    `o=- ${sessionId} 1 IN IP4 0.0.0.0`,
    `s=${name.replace(/[\r\n]/g, '')}`,
    'c=IN IP4 0.0.0.0',
    't=0 0',
    'a=control:*',
    'a=range:npt=now-',
  ];
  tracks.forEach((track, index) => {
    const pt = track.payloadType;
    if (track.kind === 'video') {
      lines.push(`m=video 0 RTP/AVP ${pt}`);
      lines.push(`a=rtpmap:${pt} ${track.codec === 'h264' ? 'H264' : 'H265'}/90000`);
      lines.push(`a=fmtp:${pt} ${videoFmtp(track.codec, track.parameterSets)}`);
    } else {
      lines.push(`m=audio 0 RTP/AVP ${pt}`);
      lines.push(`a=rtpmap:${pt} MPEG4-GENERIC/${track.sampleRate}/${track.channels}`);
      lines.push(
        `a=fmtp:${pt} streamtype=5;profile-level-id=1;mode=AAC-hbr;sizelength=13;indexlength=3;indexdeltalength=3;config=${track.config}`,
      );
    }
    lines.push(`a=control:trackID=${index}`);
  });
  return `${lines.join('\r\n')}\r\n`;
}

function videoFmtp(codec: VideoCodec, sets: readonly Buffer[]): string {
  const b64 = (type: number) =>
    sets
      .filter((s) => (codec === 'h264' ? s[0]! & 0x1f : (s[0]! >> 1) & 0x3f) === type)
      .map((s) => s.toString('base64'))
      .join(',');
  if (codec === 'h264') {
    const sps = sets.find((s) => (s[0]! & 0x1f) === 7);
    const profile = sps && sps.length >= 4 ? sps.subarray(1, 4).toString('hex') : '42e01f';
    return `packetization-mode=1;profile-level-id=${profile};sprop-parameter-sets=${b64(7)},${b64(8)}`;
  }
  return `sprop-vps=${b64(32)};sprop-sps=${b64(33)};sprop-pps=${b64(34)}`;
}
