import { describe, expect, it } from 'vitest';
import {
  formatSize,
  formatTime,
  parsePercent,
  parsePort,
  parseSize,
  parseTime,
  PERCENT_MESSAGE,
  PORT_MESSAGE,
  SIZE_MESSAGE,
  TIME_MESSAGE,
} from './dvr-units.js';

describe('DVR tab values', () => {
  it('reads sizes as the spec examples write them, binary, GiB without a unit', () => {
    expect(parseSize('1024')).toEqual({ value: 1024 * 1024 ** 3 });
    expect(parseSize('1Kb')).toEqual({ value: 1024 });
    expect(parseSize('32gb')).toEqual({ value: 32 * 1024 ** 3 });
    expect(parseSize('50TB')).toEqual({ value: 50 * 1024 ** 4 });
    expect(parseSize('2GiB')).toEqual({ value: 2 * 1024 ** 3 });
    expect(parseSize('1500b')).toEqual({ value: 1500 });
    expect(parseSize('')).toEqual({ value: null });
    expect(parseSize('ten gigs')).toEqual({ error: SIZE_MESSAGE });
    expect(parseSize('1.5g')).toEqual({ error: SIZE_MESSAGE });
  });

  it('writes sizes back in the largest whole unit', () => {
    expect(formatSize(10 * 1024 ** 3)).toBe('10G');
    expect(formatSize(1536 * 1024)).toBe('1536K');
    expect(formatSize(1500)).toBe('1500b');
    expect(formatSize(undefined)).toBe('');
    expect(parseSize(formatSize(3 * 1024 ** 4))).toEqual({ value: 3 * 1024 ** 4 });
  });

  it('reads and writes times with s, m, h, d, w', () => {
    expect(parseTime('1h')).toEqual({ value: 3600 });
    expect(parseTime('2d')).toEqual({ value: 172800 });
    expect(parseTime('1w')).toEqual({ value: 604800 });
    expect(parseTime('90')).toEqual({ value: 90 });
    expect(parseTime('1h30m')).toEqual({ error: TIME_MESSAGE });
    expect(parseTime('h')).toEqual({ error: TIME_MESSAGE });
    expect(formatTime(7200)).toBe('2h');
    expect(formatTime(90)).toBe('90s');
    expect(formatTime(1209600)).toBe('2w');
  });

  it('holds the disk limit to 0-100 percent and the port to 1-65535', () => {
    expect(parsePercent('0')).toEqual({ value: 0 });
    expect(parsePercent('100')).toEqual({ value: 100 });
    expect(parsePercent('101')).toEqual({ error: PERCENT_MESSAGE });
    expect(parsePercent('-1')).toEqual({ error: PERCENT_MESSAGE });
    expect(parsePort('1')).toEqual({ value: 1 });
    expect(parsePort('65535')).toEqual({ value: 65535 });
    expect(parsePort('0')).toEqual({ error: PORT_MESSAGE });
    expect(parsePort('65536')).toEqual({ error: PORT_MESSAGE });
    expect(parsePort('')).toEqual({ value: null });
  });
});
