/** What an audio frame header says: enough for media_info and the HLS codec string. */
export interface AudioHeader {
  codec: string;
  sampleRate: number;
  channels: number;
  profile?: string;
  /** MPEG-4 audio object type (2 for AAC-LC), for the mp4a.40.N codec string. */
  objectType?: number;
}

const ADTS_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];
const AAC_PROFILES = ['Main', 'LC', 'SSR', 'LTP'];

/** An ADTS header (ISO 14496-3 §1.A.2), which starts each AAC frame in MPEG-TS. */
export function parseAdts(b: Uint8Array): AudioHeader | undefined {
  if (b.length < 7 || b[0] !== 0xff || (b[1]! & 0xf6) !== 0xf0) return undefined;
  const profile = (b[2]! >> 6) & 3;
  const sampleRate = ADTS_RATES[(b[2]! >> 2) & 0x0f];
  const config = ((b[2]! & 1) << 2) | (b[3]! >> 6);
  if (!sampleRate) return undefined;
  // Channel configuration 7 is 7.1, eight channels; 1–6 are the count itself.
  return {
    codec: 'aac',
    sampleRate,
    channels: config === 7 ? 8 : config,
    profile: AAC_PROFILES[profile],
    objectType: profile + 1,
  };
}

const MPEG_RATES = [44100, 48000, 32000];

/** An MPEG-1/2 audio frame header (ISO 11172-3 §2.4.1.3): MP2 or MP3. */
export function parseMpegAudio(b: Uint8Array): AudioHeader | undefined {
  if (b.length < 4 || b[0] !== 0xff || (b[1]! & 0xe0) !== 0xe0) return undefined;
  const version = (b[1]! >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const layer = (b[1]! >> 1) & 3; // 3: I, 2: II, 1: III
  const base = MPEG_RATES[(b[2]! >> 2) & 3];
  if (version === 1 || layer === 0 || !base) return undefined;
  const sampleRate = version === 3 ? base : version === 2 ? base / 2 : base / 4;
  return { codec: layer === 1 ? 'mp3' : 'mp2a', sampleRate, channels: b[3]! >> 6 === 3 ? 1 : 2 };
}

const AC3_RATES = [48000, 44100, 32000];
/** Full-bandwidth channels by acmod (ATSC A/52 Table 5.8); the LFE channel is added when on. */
const AC3_CHANNELS = [2, 1, 2, 3, 3, 4, 4, 5];

/** An AC-3 sync frame header (ATSC A/52 §5.3). */
export function parseAc3(b: Uint8Array): AudioHeader | undefined {
  if (b.length < 7 || b[0] !== 0x0b || b[1] !== 0x77) return undefined;
  const sampleRate = AC3_RATES[b[4]! >> 6];
  if (!sampleRate) return undefined;
  const acmod = b[6]! >> 5;
  // lfeon follows acmod after 0–2 mix-level bits that exist only for some modes.
  let bit = 3;
  if ((acmod & 1) !== 0 && acmod !== 1) bit += 2;
  if ((acmod & 4) !== 0) bit += 2;
  if (acmod === 2) bit += 2;
  const word = (b[6]! << 8) | (b[7] ?? 0);
  const lfe = (word >> (15 - bit)) & 1;
  return { codec: 'ac3', sampleRate, channels: AC3_CHANNELS[acmod]! + lfe };
}
