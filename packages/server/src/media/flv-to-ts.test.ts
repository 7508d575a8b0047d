import { describe, expect, it } from 'vitest';
import { chunks, ffprobe, makeFlv } from '../../test/ts-fixtures.js';
import { FlvToTs } from './flv-to-ts.js';
import { PacketBus } from './packet-bus.js';

interface ProbeStream {
  codec_name: string;
  width?: number;
  sample_rate?: string;
  channels?: number;
  nb_read_frames?: string;
}

function convert(flv: Buffer) {
  const out: Buffer[] = [];
  const converter = new FlvToTs((packets) => out.push(packets));
  const verdicts = new Set(chunks(flv, 4000).map((c) => converter.push(c)));
  return { ts: Buffer.concat(out), verdicts, converter };
}

describe('FlvToTs', () => {
  it('repackages H.264 (with B-frames) and AAC into MPEG-TS that ffprobe decodes whole', () => {
    const { ts, verdicts } = convert(makeFlv(3));
    expect(verdicts.has('native')).toBe(true);
    expect(ts.length % 188).toBe(0);
    const streams = ffprobe(ts, ['-count_frames', '-show_streams']).streams as ProbeStream[];
    const video = streams.find((s) => s.codec_name === 'h264')!;
    const audio = streams.find((s) => s.codec_name === 'aac')!;
    expect(video).toMatchObject({ width: 320, nb_read_frames: '75' });
    expect(audio).toMatchObject({ sample_rate: '44100', channels: 2 });
    expect(Number(audio.nb_read_frames)).toBeGreaterThan(120);
  });

  it('gives the engine tracks, keyframes and 2 s segments, with no continuity errors', () => {
    const { ts } = convert(makeFlv(5));
    const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 5 });
    for (const c of chunks(ts, 1316)) bus.write(c, 1000);
    expect(bus.demux.tracks(1000).map((t) => [t.codec, t.width ?? t.sample_rate])).toEqual([
      ['h264', 320],
      ['aac', 44100],
    ]);
    expect(bus.demux.errors.total).toBe(0);
    expect(bus.segmenter.segments.map((s) => s.durationMs)).toEqual([2000, 2000]);
  });

  it('hands codecs it does not take (MP3) back with every byte so far, for ffmpeg', () => {
    const flv = makeFlv(1, 'mp3');
    const converter = new FlvToTs(() => undefined);
    let pushed = 0;
    let verdict = 'deciding';
    for (const chunk of chunks(flv, 1000)) {
      verdict = converter.push(chunk);
      pushed += chunk.length;
      if (verdict !== 'deciding') break;
    }
    expect(verdict).toBe('unsupported');
    expect(converter.takeHeld().equals(flv.subarray(0, pushed))).toBe(true);
  });
});
