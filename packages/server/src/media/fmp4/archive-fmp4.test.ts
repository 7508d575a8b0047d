import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ArchivedSegment, ArchiveFmp4, archiveFmp4Playlist } from './archive-fmp4.js';

const dir = mkdtempSync(join(tmpdir(), 'fmp4-archive-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('archive fMP4 playlists', () => {
  it('names each archive segment’s fragment, and an init at the start and after each break', () => {
    const ts = [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      '#EXT-X-TARGETDURATION:2',
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXT-X-PLAYLIST-TYPE:VOD',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-24T09:00:00.000Z',
      '#EXTINF:2.000,',
      'dvr/1795510800000-2000.ts?token=t',
      '#EXTINF:2.000,',
      'dvr/1795510802000-2000.ts?token=t',
      '#EXT-X-DISCONTINUITY',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-24T09:01:00.000Z',
      '#EXTINF:1.960,',
      'dvr/1795510860000-1960.ts?token=t',
      '#EXT-X-ENDLIST',
      '',
    ].join('\n');
    expect(archiveFmp4Playlist(ts)).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:7',
        '#EXT-X-TARGETDURATION:2',
        '#EXT-X-MEDIA-SEQUENCE:0',
        '#EXT-X-PLAYLIST-TYPE:VOD',
        '#EXT-X-PROGRAM-DATE-TIME:2026-11-24T09:00:00.000Z',
        '#EXT-X-MAP:URI="dvr/1795510800000-2000.init.mp4?token=t"',
        '#EXTINF:2.000,',
        'dvr/1795510800000-2000.m4s?token=t',
        '#EXTINF:2.000,',
        'dvr/1795510802000-2000.m4s?token=t',
        '#EXT-X-DISCONTINUITY',
        '#EXT-X-PROGRAM-DATE-TIME:2026-11-24T09:01:00.000Z',
        '#EXT-X-MAP:URI="dvr/1795510860000-1960.init.mp4?token=t"',
        '#EXTINF:1.960,',
        'dvr/1795510860000-1960.m4s?token=t',
        '#EXT-X-ENDLIST',
        '',
      ].join('\n'),
    );
  });
});

/** An archive of three files: a GOP cut in two (the second half without SPS/PPS), then after a gap a new source. */
describe('archive fMP4 fragments', () => {
  const T0 = 1_795_510_800_000;
  const segments: (ArchivedSegment & { file: string })[] = [];
  const files = {
    segments: (fromMs: number, toMs: number) =>
      segments.filter((s) => s.startMs < toMs && s.startMs + s.durationMs > fromMs),
    pathOf: (s: ArchivedSegment & { file: string }) => s.file,
  };

  beforeAll(() => {
    const source = join(dir, 'source.ts');
    const args = [
      ...[
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=160x120:rate=25',
        '-f',
        'lavfi',
        '-i',
        'sine',
      ],
      ...['-t', '2', '-c:v', 'libx264', '-preset', 'veryfast', '-bf', '2', '-g', '50', '-c:a', 'aac', source],
    ];
    expect(spawnSync('ffmpeg', args, { timeout: 60_000 }).status).toBe(0);
    const ts = readFileSync(source);
    // Cut at the 25th video access unit: the tables go before the second half, as the segmenter does.
    let units = 0;
    let cut = 0;
    for (let o = 0; o < ts.length && !cut; o += 188)
      if (((ts[o + 1]! & 0x1f) << 8) + ts[o + 2]! === 0x100 && ts[o + 1]! & 0x40 && units++ === 25) cut = o;
    const parts = [ts.subarray(0, cut), Buffer.concat([ts.subarray(0, 3 * 188), ts.subarray(cut)]), ts];
    const layout = [
      { startMs: T0, durationMs: 1000, discontinuity: false },
      { startMs: T0 + 1000, durationMs: 1000, discontinuity: false },
      { startMs: T0 + 60_000, durationMs: 2000, discontinuity: true },
    ];
    layout.forEach((s, i) => {
      const file = join(dir, `${i}.ts`);
      writeFileSync(file, parts[i]!);
      segments.push({ ...s, file });
    });
  }, 60_000);

  it('a segment cut inside a GOP gets the init of its run and plays after the one before', async () => {
    const archive = new ArchiveFmp4();
    const init = await archive.piece(files, T0, 1000, 'init');
    const second = await archive.piece(files, T0 + 1000, 1000, 'init');
    expect(second!.equals(init!)).toBe(true);
    const fragments = await Promise.all([
      archive.piece(files, T0, 1000, 'fragment'),
      archive.piece(files, T0 + 1000, 1000, 'fragment'),
    ]);
    const file = join(dir, 'run.mp4');
    writeFileSync(file, Buffer.concat([init!, ...fragments.map((f) => f!)]));
    const decode = spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-'], { timeout: 60_000 });
    expect(decode.stderr.toString()).toBe('');
    // Asked again: the same bytes, not a second remux.
    expect(await archive.piece(files, T0 + 1000, 1000, 'fragment')).toBe(fragments[1]);
  });

  it('answers nothing for a segment the index does not hold as named', async () => {
    const archive = new ArchiveFmp4();
    expect(await archive.piece(files, T0 + 500, 1000, 'fragment')).toBeUndefined();
    expect(await archive.piece(files, T0, 999, 'init')).toBeUndefined();
    expect(await archive.piece(files, T0 + 60_000, 2000, 'init')).toBeInstanceOf(Buffer);
  });
});
