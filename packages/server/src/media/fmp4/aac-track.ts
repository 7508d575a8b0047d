import { box, fullBox, u16, u32, u8 } from './mp4-box.js';
import type { Pes } from './ts-elementary.js';
import type { Fmp4Sample, Fmp4Track } from './track.js';
import { TS_CLOCK } from '../ts-packet.js';

const ADTS_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];
/** PCM samples in one AAC raw data block (ISO 14496-3 §4.5.2.1: 1024 for AAC-LC as carried in ADTS). */
const BLOCK_SAMPLES = 1024;

interface AdtsFrame {
  raw: Buffer;
  samples: number;
}

/** The raw AAC frames of a PES (ADTS headers removed; ISO 14496-3 §1.A.2); a cut last frame is dropped. */
interface AdtsRun {
  frames: AdtsFrame[];
  config?: Buffer;
  sampleRate?: number;
  channels?: number;
  objectType?: number;
}

function adtsFrames(data: Buffer): AdtsRun {
  const run: AdtsRun = { frames: [] };
  for (let i = 0; i + 7 <= data.length;) {
    if (data[i] !== 0xff || (data[i + 1]! & 0xf6) !== 0xf0) {
      i++;
      continue;
    }
    const headerLength = (data[i + 1]! & 1) === 1 ? 7 : 9;
    const frameLength = ((data[i + 3]! & 3) << 11) | (data[i + 4]! << 3) | (data[i + 5]! >> 5);
    if (frameLength < headerLength || i + frameLength > data.length) break;
    const objectType = (data[i + 2]! >> 6) + 1;
    const rateIndex = (data[i + 2]! >> 2) & 0x0f;
    const channelConfig = ((data[i + 2]! & 1) << 2) | (data[i + 3]! >> 6);
    if (!run.config && ADTS_RATES[rateIndex]) {
      // AudioSpecificConfig (§1.6.2.1): object type, rate index, channel configuration, then zeros.
      run.config = u8((objectType << 3) | (rateIndex >> 1), ((rateIndex & 1) << 7) | (channelConfig << 3));
      run.sampleRate = ADTS_RATES[rateIndex];
      run.channels = channelConfig === 7 ? 8 : channelConfig;
      run.objectType = objectType;
    }
    const blocks = (data[i + 6]! & 3) + 1;
    run.frames.push({
      raw: data.subarray(i + headerLength, i + frameLength),
      samples: blocks * BLOCK_SAMPLES,
    });
    i += frameLength;
  }
  return run;
}

/** An MPEG-4 descriptor: tag, size (one byte: these are all under 128), body (ISO 14496-1 §7.2.2). */
const descriptor = (tag: number, ...body: Buffer[]): Buffer => {
  const content = Buffer.concat(body);
  return Buffer.concat([u8(tag, content.length), content]);
};

function mp4aEntry(config: Buffer, sampleRate: number, channels: number, trackId: number): Buffer {
  const esds = fullBox(
    'esds',
    0,
    0,
    descriptor(
      0x03, // ES_Descriptor
      u16(trackId),
      u8(0),
      // DecoderConfigDescriptor: MPEG-4 audio (0x40), audio stream (5), buffer size and bit rates unknown.
      descriptor(0x04, u8(0x40, (0x05 << 2) | 1, 0, 0, 0), u32(0, 0), descriptor(0x05, config)),
      descriptor(0x06, u8(0x02)), // SLConfigDescriptor: predefined for MP4
    ),
  );
  return box(
    'mp4a',
    Buffer.alloc(6),
    u16(1), // data_reference_index
    u32(0, 0),
    u16(channels, 16, 0, 0),
    // The rate as 16.16; rates above 65535 do not fit and the esds config is what decoders read.
    u32(sampleRate <= 0xffff ? sampleRate * 0x10000 : 0),
    esds,
  );
}

/**
 * The AAC track of a segment: one sample per raw frame, on a clock of the sample rate. `start90k`
 * maps a TS timestamp to the unwrapped 90 kHz timeline the fragment uses.
 */
export function aacTrack(
  pesList: readonly Pes[],
  id: number,
  start90k: (pts: number) => number,
): Fmp4Track | undefined {
  let entry: Buffer | undefined;
  let sampleRate = 0;
  let objectType = 2;
  const timed: { tick: number; frame: AdtsFrame }[] = [];
  for (const pes of pesList) {
    const parsed = adtsFrames(pes.data);
    if (!entry && parsed.config && parsed.sampleRate) {
      sampleRate = parsed.sampleRate;
      objectType = parsed.objectType ?? 2;
      entry = mp4aEntry(parsed.config, sampleRate, parsed.channels ?? 2, id);
    }
    if (!sampleRate || pes.pts === undefined) continue;
    let tick = Math.round((start90k(pes.pts) * sampleRate) / TS_CLOCK);
    for (const frame of parsed.frames) {
      timed.push({ tick, frame });
      tick += frame.samples;
    }
  }
  if (!entry || timed.length === 0) return undefined;
  const samples: Fmp4Sample[] = timed.map(({ tick, frame }, i) => {
    const next = timed[i + 1]?.tick;
    const gap = next === undefined ? frame.samples : next - tick;
    // PES timestamps round to the 90 kHz clock, so a frame's next one lands ±1 tick off its sample
    // count: that is the same frame length. Only a real gap (lost frames) lengthens a sample.
    const duration = gap > frame.samples * 1.5 ? gap : frame.samples;
    return { parts: [frame.raw], size: frame.raw.length, duration, compositionOffset: 0, sync: true };
  });
  return {
    id,
    kind: 'audio',
    timescale: sampleRate,
    codec: `mp4a.40.${objectType}`,
    sampleEntry: entry,
    baseDecodeTime: timed[0]!.tick,
    samples,
  };
}
