import { describe, expect, it } from 'vitest';
import { DiskPlacement } from './disk-placement.js';

const disks = ['a', 'b', 'c'].map((name, disk) => ({
  dir: `/r/${name}/cam`,
  disk,
  mountPoint: `/r/${name}`,
}));
const names = (targets: { dir: string }[]) => targets.map((t) => t.dir.split('/')[2]);

describe('RAID 0 disk placement', () => {
  it('spreads segments over the active disks in turn, the others as fallback', () => {
    const placement = new DiskPlacement(() => disks, 2, 5000);
    expect(names(placement.next(0))).toEqual(['a', 'b', 'c']);
    expect(names(placement.next(0))).toEqual(['b', 'a', 'c']);
    expect(names(placement.next(0))).toEqual(['a', 'b', 'c']);
  });

  it('skips a disk that failed (full, not mounted) for a while, and says which', () => {
    const placement = new DiskPlacement(() => disks, undefined, 5000);
    placement.failed(disks[1]!, 'disk full', 1000);
    expect(names(placement.next(2000))).toEqual(['a', 'c']);
    expect(names(placement.next(2000))).toEqual(['c', 'a']);
    expect(placement.problems(2000)).toEqual(['disk full']);
    // Tried again after the pause; a write that works clears it.
    expect(names(placement.next(6001))).toContain('b');
    placement.succeeded(disks[1]!);
    expect(placement.problems(6001)).toEqual([]);
  });
});
