import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMp4 } from '../../test/mp4-fixtures.js';
import { openMp4Source } from './mp4-source.js';

/** Box types whose size field a mutation rewrites: every table the reader trusts nothing of. */
const BOX_TYPES = [
  'moov',
  'mvhd',
  'trak',
  'tkhd',
  'edts',
  'elst',
  'mdia',
  'mdhd',
  'hdlr',
  'minf',
  'stbl',
].concat([
  'stsd',
  'avc1',
  'avcC',
  'mp4a',
  'esds',
  'stts',
  'ctts',
  'stsc',
  'stsz',
  'stco',
  'stss',
  'mdat',
  'ftyp',
]);
/** Sizes and counts that break naive readers: empty, the 64-bit marker, past any end, billions. */
const HOSTILE = [0, 1, 7, 8, 9, 0x7fffffff, 0xffffffff, 0x10000, 3_000_000_000];
/** Any case (open and every segment) takes far less than this; a loop on a hostile count would not. */
const CASE_BUDGET_MS = 3000;

interface Sample {
  bytes: Buffer;
  /** Where each box type's size field is, and where the 'moov' is. */
  sizeFields: number[];
  moov: [number, number];
}

function describeFile(bytes: Buffer): Sample {
  const sizeFields: number[] = [];
  for (const type of BOX_TYPES) {
    for (let at = bytes.indexOf(type, 4, 'latin1'); at >= 4; at = bytes.indexOf(type, at + 1, 'latin1')) {
      sizeFields.push(at - 4);
    }
  }
  const moovAt = bytes.indexOf('moov', 0, 'latin1') - 4;
  return { bytes, sizeFields, moov: [moovAt, moovAt + bytes.readUInt32BE(moovAt)] };
}

const mutation = fc.oneof(
  // Flip a byte of the movie header (most of a file is media data, where damage is the decoder's problem).
  fc.record({
    kind: fc.constant('moov-byte' as const),
    at: fc.nat(),
    value: fc.integer({ min: 0, max: 255 }),
  }),
  fc.record({
    kind: fc.constant('any-byte' as const),
    at: fc.nat(),
    value: fc.integer({ min: 0, max: 255 }),
  }),
  // A 32-bit field of the movie header (a count, an offset, a size) set to a hostile value.
  fc.record({ kind: fc.constant('moov-word' as const), at: fc.nat(), value: fc.constantFrom(...HOSTILE) }),
  fc.record({ kind: fc.constant('box-size' as const), at: fc.nat(), value: fc.constantFrom(...HOSTILE) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function damage(sample: Sample, mutations: Mutation[]): Buffer {
  let bytes = Buffer.from(sample.bytes);
  const [moovStart, moovEnd] = sample.moov;
  for (const m of mutations) {
    if (bytes.length < 8) break;
    if (m.kind === 'truncate') bytes = bytes.subarray(0, m.at % bytes.length);
    else if (m.kind === 'any-byte') bytes[m.at % bytes.length] = m.value;
    else if (m.kind === 'moov-byte') {
      const at = moovStart + (m.at % (moovEnd - moovStart));
      if (at < bytes.length) bytes[at] = m.value;
    } else {
      const at =
        m.kind === 'box-size'
          ? sample.sizeFields[m.at % sample.sizeFields.length]!
          : moovStart + 4 * (m.at % ((moovEnd - moovStart) / 4));
      if (at + 4 <= bytes.length) bytes.writeUInt32BE(m.value >>> 0, at);
    }
  }
  return bytes;
}

describe('MP4 reader under damaged files', () => {
  let dir: string;
  const samples: Sample[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-mp4-fuzz-'));
    const base = { seconds: 3, video: 'h264' as const, bFrames: 2, gop: 20, audio: [{ sampleRate: 44100 }] };
    samples.push(describeFile(readFileSync(makeMp4(dir, 'end.mp4', base))));
    samples.push(describeFile(readFileSync(makeMp4(dir, 'start.mp4', { ...base, faststart: true }))));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('opens and segments, or rejects with an Error naming the file, for 1200 damaged copies', async () => {
    const path = join(dir, 'damaged.mp4');
    let opened = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: samples.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        async (which, mutations) => {
          writeFileSync(path, damage(samples[which]!, mutations));
          const started = Date.now();
          try {
            const source = await openMp4Source(path);
            opened++;
            try {
              for (let i = 0; i < source.segments.length; i++) {
                await source.tsSegment(i).catch((error: unknown) => {
                  expect(error).toBeInstanceOf(Error);
                  expect((error as Error).message).toContain(path);
                });
              }
            } finally {
              source.close();
            }
          } catch (error) {
            refused++;
            expect(error).toBeInstanceOf(Error);
            expect((error as Error).message).toContain(path);
          }
          expect(Date.now() - started).toBeLessThan(CASE_BUDGET_MS);
        },
      ),
      { numRuns: 1200 },
    );
    // Both outcomes happen: the mutations are neither all harmless nor all fatal.
    expect(opened).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(50);
  }, 300_000);
});
