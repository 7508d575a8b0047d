import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMp4, run } from '../../test/mp4-fixtures.js';
import { openMp4Source } from './mp4-source.js';

/** Files an operator may drop in a VOD directory that cannot be played: each is refused by name. */
describe('MP4 reader: unreadable files', () => {
  let dir: string;
  let moovAtEnd: Buffer;
  let faststart: Buffer;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-mp4-faults-'));
    const base = { seconds: 4, video: 'h264' as const, audio: [{ sampleRate: 44100 }] };
    moovAtEnd = readFileSync(makeMp4(dir, 'end.mp4', base));
    faststart = readFileSync(makeMp4(dir, 'start.mp4', { ...base, faststart: true }));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const refused = async (name: string, bytes: Buffer | undefined, why: RegExp) => {
    const path = join(dir, name);
    if (bytes) writeFileSync(path, bytes);
    const opening = openMp4Source(path);
    await expect(opening).rejects.toThrow(path);
    await expect(opening).rejects.toThrow(why);
  };

  it('refuses a missing file', () => refused('missing.mp4', undefined, /ENOENT/));

  it('refuses a file that is not an MP4', () =>
    refused('notes.mp4', Buffer.from('hello\n'.repeat(100)), /not an MP4/));

  it('refuses an upload cut short before its movie header (moov at the end)', () =>
    refused('cut-end.mp4', moovAtEnd.subarray(0, moovAtEnd.length >> 1), /bad size|no 'moov'/));

  it('refuses a faststart file cut short inside its media data', () =>
    refused('cut-start.mp4', faststart.subarray(0, faststart.length >> 1), /past the end of the file/));

  it('refuses a file with no H.264, HEVC or AAC track, naming the codecs it has', async () => {
    const path = join(dir, 'mpeg4.mp4');
    run('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x96:rate=25:duration=1'],
      ...['-f', 'lavfi', '-i', 'sine=duration=1', '-c:v', 'mpeg4', '-c:a', 'libmp3lame', path],
    ]);
    await refused('mpeg4.mp4', undefined, /no H.264, HEVC or AAC track.*'mp4v'.*'mp4a \(not AAC\)'/);
  });

  it('refuses a hostile sample count without allocating for it', async () => {
    const bytes = Buffer.from(faststart);
    const stsz = bytes.indexOf('stsz', 0, 'latin1');
    bytes.writeUInt32BE(1, stsz + 8); // every sample 1 byte…
    bytes.writeUInt32BE(0xffffffff, stsz + 12); // …and 4 billion of them
    await refused('hostile.mp4', bytes, /more than the file holds/);
  });

  it('answers a segment of a file changed since it was opened with an Error naming it', async () => {
    const path = join(dir, 'changing.mp4');
    writeFileSync(path, faststart);
    const source = await openMp4Source(path);
    source.close();
    appendFileSync(path, Buffer.alloc(1000));
    await expect(source.tsSegment(0)).rejects.toThrow(`${path}: the file changed since it was opened`);
    await expect(source.tsSegment(source.segments.length)).rejects.toThrow(/no segment/);
  });
});
