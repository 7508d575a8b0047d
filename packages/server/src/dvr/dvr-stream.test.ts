import { describe, expect, it } from 'vitest';
import type { DiskMode } from './disk-modes.js';
import type { DvrSettings } from './dvr-settings.js';
import { foldersOf } from './dvr-stream.js';

const modes: DiskMode[] = ['default', 'keep', 'readonly', 'abandon', 'migrate', 'rescue'];
const settings = (diskModes: DiskMode[]): DvrSettings => ({
  root: '/r',
  dvrLimitSeconds: 3600,
  diskLimitPercent: undefined,
  diskSpaceBytes: undefined,
  storage: undefined,
  disks: diskModes.map((mode, i) => ({ name: `d${i}-${mode}`, root: `/r/d${i}-${mode}`, mode })),
});

describe('RAID 0 disk modes (docs/config.md)', () => {
  it('each mode decides whether a disk is read, written and cleaned by retention', () => {
    const folders = foldersOf('cam', settings(modes));
    if (typeof folders === 'string') throw new Error(folders);
    // Read back and served: every disk but the abandoned one.
    expect(folders.dirs).toEqual([
      '/r/d0-default/cam',
      '/r/d1-keep/cam',
      '/r/d2-readonly/cam',
      '/r/d4-migrate/cam',
      '/r/d5-rescue/cam',
    ]);
    // Written: default and keep only, in turn.
    const written = new Set<string>();
    for (let i = 0; i < 4; i++) written.add(folders.placement!.next(0)[0]!.dir);
    expect([...written].sort()).toEqual(['/r/d0-default/cam', '/r/d1-keep/cam']);
    expect(folders.placement!.next(0).map((t) => t.dir)).not.toContain('/r/d2-readonly/cam');
    // Cleaned by retention (positions in `dirs`): default and migrate; keep, readonly, rescue never.
    expect(folders.dirs.map((_, disk) => folders.deletable!(disk))).toEqual([
      true,
      false,
      false,
      true,
      false,
    ]);
  });

  it('a storage whose disks are all abandoned says so, and a name leaving the root is refused', () => {
    expect(foldersOf('cam', settings(['abandon', 'abandon']))).toBe(
      'no disk of /r can be read (every disk is abandoned)',
    );
    expect(foldersOf('../etc', settings(['default']))).toMatch(/can't be a folder under/);
    expect(foldersOf('cam', { ...settings([]), disks: undefined })).toEqual({ dirs: ['/r/cam'] });
  });
});
