import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArchiveSegment } from './archive-index.js';
import { temporarySegmentPath } from './layout.js';
import { MAX_QUEUED_SEGMENTS, RETRY_AFTER_FAILURE_MS, SegmentRecorder } from './segment-recorder.js';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);
let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});

function recorderIn(dir: string, clock: { now: number }) {
  const appended: ArchiveSegment[] = [];
  const errors: (string | undefined)[] = [];
  const recorder = new SegmentRecorder({
    dir,
    append: (segment) => appended.push(segment) > 0,
    archiveEndMs: () => undefined,
    onError: (message) => errors.push(message),
    now: () => clock.now,
  });
  return { recorder, appended, errors };
}
const segment = (sequence: number) => ({
  sequence,
  durationMs: 1000,
  discontinuity: false,
  data: Buffer.alloc(188 * 10),
});

describe('segment recorder', () => {
  it('stops writing on a full disk and says so, then writes again once it can', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dvr-recorder-'));
    dirs.push(dir);
    const clock = { now: T0 + 1000 };
    const { recorder, appended, errors } = recorderIn(dir, clock);
    // The temporary file of the first segment leads to /dev/full: every write there is ENOSPC.
    const temporary = temporarySegmentPath(dir, T0);
    await mkdir(dirname(temporary), { recursive: true });
    await symlink('/dev/full', temporary);
    recorder.take(segment(1));
    await recorder.settled();
    expect(errors).toEqual([expect.stringMatching(/^disk full: .* recording stopped until space is freed$/)]);
    expect(appended).toEqual([]);
    // Meanwhile segments are dropped, not queued.
    clock.now += 1000;
    recorder.take(segment(2));
    expect(recorder.dropped).toBe(2);
    clock.now += RETRY_AFTER_FAILURE_MS;
    recorder.take(segment(3));
    await recorder.settled();
    expect(errors.at(-1)).toBeUndefined();
    // After the break the segment is placed by the clock and flagged as not continuing.
    expect(appended).toEqual([
      { startMs: clock.now - 1000, durationMs: 1000, discontinuity: true, bytes: 1880 },
    ]);
    expect((await readdir(dirname(temporary))).sort()).toEqual([`${clock.now - 1000}-1000d.ts`]);
  });

  it('drops what the disk cannot take at once, never queueing more than the bound', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dvr-recorder-'));
    dirs.push(dir);
    const clock = { now: T0 + 1000 };
    const { recorder, appended } = recorderIn(dir, clock);
    for (let i = 0; i < MAX_QUEUED_SEGMENTS + 4; i++) {
      recorder.take(segment(i));
      clock.now += 1000;
    }
    // One being written, the bound queued, the rest dropped.
    expect(recorder.dropped).toBe(3);
    await recorder.settled();
    expect(appended).toHaveLength(MAX_QUEUED_SEGMENTS + 1);
    // The next segment after the dropped ones does not continue what was written.
    recorder.take(segment(99));
    await recorder.settled();
    expect(appended.map((s) => s.discontinuity).filter(Boolean)).toHaveLength(2);
    expect(appended.at(-1)?.discontinuity).toBe(true);
  });

  it('copies each finished segment to the copy root, in the same layout', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dvr-recorder-'));
    const copy = await mkdtemp(join(tmpdir(), 'dvr-copy-'));
    dirs.push(dir, copy);
    const clock = { now: T0 + 1000 };
    const copyErrors: string[] = [];
    const recorder = new SegmentRecorder({
      dir,
      copyDir: () => copy,
      onCopyError: (message) => copyErrors.push(message),
      append: () => true,
      archiveEndMs: () => undefined,
      onError: () => undefined,
      now: () => clock.now,
    });
    recorder.take(segment(1));
    clock.now += 1000;
    recorder.take(segment(2));
    await recorder.settled();
    const names = async (root: string) => (await readdir(dirname(temporarySegmentPath(root, T0)))).sort();
    expect(await names(copy)).toEqual([`${T0}-1000d.ts`, `${T0 + 1000}-1000.ts`]);
    expect(await names(copy)).toEqual(await names(dir));
    expect(copyErrors).toEqual([]);
  });

  it('records only while the schedule says so', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dvr-recorder-'));
    dirs.push(dir);
    const clock = { now: T0 + 1000 };
    let open = false;
    const appended: ArchiveSegment[] = [];
    const recorder = new SegmentRecorder({
      dir,
      recording: () => open,
      append: (s) => appended.push(s) > 0,
      archiveEndMs: () => undefined,
      onError: () => undefined,
      now: () => clock.now,
    });
    recorder.take(segment(1));
    open = true;
    clock.now += 1000;
    recorder.take(segment(2));
    await recorder.settled();
    expect(appended).toEqual([{ startMs: T0 + 1000, durationMs: 1000, discontinuity: true, bytes: 1880 }]);
  });
});
