import { describe, expect, it } from 'vitest';
import {
  formatHhmm,
  newDvrName,
  orderedDisks,
  parseHhmm,
  withDiskAdded,
  withDiskMode,
  withDiskRemoved,
  withDiskRenamed,
  withField,
  withRaid0,
} from './dvr-form.js';

describe('DVR storage page edits (spec 002 §3, §5, §9)', () => {
  it('shows HHMM as a time of day and reads it back', () => {
    expect(formatHhmm(0)).toBe('00:00');
    expect(formatHhmm(2359)).toBe('23:59');
    expect(formatHhmm(830)).toBe('08:30');
    expect(parseHhmm('08:30')).toBe(830);
    expect(parseHhmm('24:00')).toBeUndefined();
    expect(parseHhmm('')).toBeUndefined();
  });

  it('removes a field set to empty, and RAID 0 off removes the disks to write', () => {
    expect(withField({ root: '/a', copy: '/b' }, 'copy', '')).toEqual({ root: '/a' });
    expect(withRaid0({ root: '/a' }, true)).toEqual({ root: '/a', raid: 0 });
    expect(withRaid0({ root: '/a', raid: 0, active: 2 }, false)).toEqual({ root: '/a' });
  });

  it('adds, renames, moves modes and removes disks in order, lowering the disks to write', () => {
    let dvr = withDiskAdded(withDiskAdded({ root: '/a', raid: 0 }));
    expect(orderedDisks(dvr.disks)).toEqual(['disk1', 'disk2']);
    dvr = withDiskMode(withField(dvr, 'active', 2), 'disk1', 'keep');
    dvr = withDiskRenamed(dvr, 'disk1', ' sda ');
    expect(dvr.disks).toEqual({ sda: { position: 0, mode: 'keep' }, disk2: { position: 1 } });
    expect(withDiskRenamed(dvr, 'sda', 'disk2')).toBe(dvr);
    expect(withDiskRenamed(dvr, 'sda', '  ')).toBe(dvr);
    dvr = withDiskRemoved(dvr, 'disk2');
    expect(dvr).toEqual({ root: '/a', raid: 0, active: 1, disks: { sda: { position: 0, mode: 'keep' } } });
    expect(withDiskMode(dvr, 'sda', '').disks).toEqual({ sda: { position: 0 } });
    expect(withDiskRemoved(dvr, 'sda')).toEqual({ root: '/a', raid: 0 });
  });

  it('names a new DVR with the first free dvrN', () => {
    expect(newDvrName([])).toBe('dvr1');
    expect(newDvrName(['dvr1', 'dvr3'])).toBe('dvr2');
  });
});
