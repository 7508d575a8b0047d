import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { privateScratchDir } from './scratch-dir.js';

describe('privateScratchDir (the DASH scratch folder)', () => {
  let base: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'scratch-test-'));
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('makes a new folder only this user can enter, at a name nobody could guess', async () => {
    // Another local user planted the old fixed name as a link to somewhere of theirs.
    const theirs = join(base, 'theirs');
    await mkdir(theirs);
    await symlink(theirs, join(base, 'sluice-dash-abc'));
    const first = await privateScratchDir('sluice-dash-abc', base);
    expect(first).not.toBe(join(base, 'sluice-dash-abc'));
    expect(first.startsWith(join(base, 'sluice-dash-abc-'))).toBe(true);
    expect((await stat(first)).mode & 0o777).toBe(0o700);
    expect(existsSync(theirs)).toBe(true);
    const second = await privateScratchDir('sluice-dash-abc', base);
    expect(second).not.toBe(first);
  });

  it("removes earlier runs' folders, not what a symlink named like one points at", async () => {
    const earlier = join(base, 'sluice-dash-abc-OLD123');
    await mkdir(earlier);
    await writeFile(join(earlier, 'seg.m4s'), 'x');
    const precious = join(base, 'precious');
    await mkdir(precious);
    await writeFile(join(precious, 'keep.txt'), 'keep');
    await symlink(precious, join(base, 'sluice-dash-abc-LINK'));
    const other = join(base, 'sluice-dash-other-1');
    await mkdir(other);

    await privateScratchDir('sluice-dash-abc', base);
    expect(existsSync(earlier)).toBe(false);
    expect(await readFile(join(precious, 'keep.txt'), 'utf8')).toBe('keep');
    expect(existsSync(other)).toBe(true);
  });
});
