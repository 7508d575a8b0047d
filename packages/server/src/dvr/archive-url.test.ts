import { describe, expect, it } from 'vitest';
import { parseArchivePath } from './archive-url.js';

describe('archive URL family (Flussonic streaming API)', () => {
  it('reads archive ranges in every format, for names with slashes', () => {
    expect(parseArchivePath('/cam/archive-1795510800-60.m3u8')).toEqual({
      name: 'cam',
      kind: 'range',
      fromMs: 1_795_510_800_000,
      durationMs: 60_000,
      format: 'm3u8',
    });
    expect(parseArchivePath('/cam/index-1795510800-60.m3u8')).toMatchObject({
      kind: 'range',
      format: 'm3u8',
    });
    for (const format of ['ts', 'mp4', 'mpd'] as const)
      expect(parseArchivePath(`/loc/cam/archive-1795510800-3600.${format}`)).toMatchObject({
        name: 'loc/cam',
        format,
        durationMs: 3_600_000,
      });
  });

  it('reads timeshift, rewind, the JSON answers, frames and archive segments', () => {
    expect(parseArchivePath('/cam/timeshift_abs-1795510800.m3u8')).toEqual({
      name: 'cam',
      kind: 'timeshift_abs',
      fromMs: 1_795_510_800_000,
      format: 'm3u8',
    });
    expect(parseArchivePath('/cam/timeshift_rel-30.ts')).toEqual({
      name: 'cam',
      kind: 'timeshift_rel',
      delayMs: 30_000,
      format: 'ts',
    });
    expect(parseArchivePath('/cam/rewind-7200.m3u8')).toEqual({
      name: 'cam',
      kind: 'rewind',
      agoMs: 7_200_000,
    });
    expect(parseArchivePath('/cam/ranges.json')).toEqual({ name: 'cam', kind: 'json', what: 'ranges' });
    expect(parseArchivePath('/cam/recording_status.json')).toMatchObject({ what: 'recording_status' });
    expect(parseArchivePath('/cam/media_info.json')).toMatchObject({ what: 'media_info' });
    expect(parseArchivePath('/cam/1795510800.jpg')).toEqual({
      name: 'cam',
      kind: 'jpg',
      atMs: 1_795_510_800_000,
      preview: false,
    });
    expect(parseArchivePath('/cam/1795510800-preview.jpg')).toMatchObject({ preview: true });
    expect(parseArchivePath('/cam/dvr/1795510800000-2000.ts')).toEqual({
      name: 'cam',
      kind: 'segment',
      startMs: 1_795_510_800_000,
      durationMs: 2000,
    });
  });

  it('reads the pieces of an archive MPD, beside it', () => {
    expect(parseArchivePath('/cam/archive-1795510800-60/chunk-1-00002.m4s')).toEqual({
      name: 'cam',
      kind: 'dash_piece',
      fromMs: 1_795_510_800_000,
      durationMs: 60_000,
      piece: 'chunk-1-00002.m4s',
    });
    expect(parseArchivePath('/cam/archive-1795510800-60/init-0.m4s')).toMatchObject({ piece: 'init-0.m4s' });
    expect(parseArchivePath('/cam/archive-1795510800-60/..m4s')).toEqual({
      error: 'unknown piece "..m4s" of an archive MPD',
    });
  });

  it('leaves live paths and other files to the rest of the server', () => {
    for (const path of [
      '/cam/index.m3u8',
      '/cam/video.m3u8',
      '/cam/preview.jpg',
      '/cam/seg-12.ts',
      '/cam/mpegts',
    ])
      expect(parseArchivePath(path)).toBeUndefined();
    expect(parseArchivePath('/flussonic/api/read_config')).toBeUndefined();
    // The .ts.m3u8 variants are not archive paths (nor malformed ranges); live fMP4 HLS is not either.
    expect(parseArchivePath('/cam/archive-1795510800-60.ts.m3u8')).toBeUndefined();
    expect(parseArchivePath('/cam/timeshift_rel-30.ts.m3u8')).toBeUndefined();
    expect(parseArchivePath('/cam/index.fmp4.m3u8')).toBeUndefined();
    expect(parseArchivePath('/cam/fmp4-12.m4s')).toBeUndefined();
  });

  it('reads the fMP4 HLS playlists of the archive (what the DVR player asks for) and their pieces', () => {
    const range = {
      kind: 'range',
      fromMs: 1_795_510_800_000,
      durationMs: 60_000,
      format: 'm3u8',
      fmp4: true,
    };
    expect(parseArchivePath('/cam/index-1795510800-60.fmp4.m3u8')).toEqual({ name: 'cam', ...range });
    expect(parseArchivePath('/loc/cam/archive-1795510800-60.fmp4.m3u8')).toEqual({
      name: 'loc/cam',
      ...range,
    });
    expect(parseArchivePath('/cam/timeshift_abs-1795510800.fmp4.m3u8')).toEqual({
      name: 'cam',
      kind: 'timeshift_abs',
      fromMs: 1_795_510_800_000,
      format: 'm3u8',
      fmp4: true,
    });
    expect(parseArchivePath('/cam/timeshift_rel-30.fmp4.m3u8')).toEqual({
      name: 'cam',
      kind: 'timeshift_rel',
      delayMs: 30_000,
      format: 'm3u8',
      fmp4: true,
    });
    expect(parseArchivePath('/cam/rewind-60.fmp4.m3u8')).toEqual({
      name: 'cam',
      kind: 'rewind',
      agoMs: 60_000,
      fmp4: true,
    });
    // The TS playlists stay TS: no fmp4 field at all.
    expect(parseArchivePath('/cam/index-1795510800-60.m3u8')).not.toHaveProperty('fmp4');
    expect(parseArchivePath('/cam/dvr/1795510800000-2000.m4s')).toEqual({
      name: 'cam',
      kind: 'fmp4_piece',
      startMs: 1_795_510_800_000,
      durationMs: 2_000,
      piece: 'fragment',
    });
    expect(parseArchivePath('/loc/cam/dvr/1795510800000-2000.init.mp4')).toEqual({
      name: 'loc/cam',
      kind: 'fmp4_piece',
      startMs: 1_795_510_800_000,
      durationMs: 2_000,
      piece: 'init',
    });
    const error = (path: string) => {
      const parsed = parseArchivePath(path);
      return parsed && 'error' in parsed ? parsed.error : undefined;
    };
    expect(error('/cam/index-1795510800-0.fmp4.m3u8')).toMatch(/duration must be positive/);
    expect(error('/cam/timeshift_abs-abc.fmp4.m3u8')).toMatch(/malformed from/);
    expect(error('/cam/rewind-0.fmp4.m3u8')).toMatch(/positive/);
  });

  it('refuses malformed numbers, negative or zero durations and names that leave the archive', () => {
    const error = (path: string) => {
      const parsed = parseArchivePath(path);
      return parsed && 'error' in parsed ? parsed.error : undefined;
    };
    expect(error('/cam/archive-1795510800--60.m3u8')).toMatch(/duration/);
    expect(error('/cam/archive-1795510800-0.mp4')).toMatch(/duration must be positive/);
    expect(error('/cam/archive-17955x0800-60.ts')).toMatch(/malformed/);
    expect(error('/cam/archive-99999999999999999999-60.ts')).toMatch(/malformed|out of range/);
    expect(error('/cam/timeshift_rel-abc.m3u8')).toMatch(/malformed/);
    expect(error('/cam/rewind-0.m3u8')).toMatch(/positive/);
    expect(error('/../etc/archive-1795510800-60.ts')).toMatch(/leaves the archive/);
    expect(error('/a%2F..%2F..%2Fb/ranges.json')).toMatch(/leaves the archive/);
    expect(error('/a%ZZ/ranges.json')).toMatch(/malformed/);
  });
});
