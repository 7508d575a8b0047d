import { describe, expect, it } from 'vitest';
import { inSchedule } from './schedule.js';

/** A local time today. */
const at = (h: number, m: number) => new Date(2026, 10, 24, h, m, 30);

describe('dvr schedule', () => {
  it('records all the time without a schedule', () => {
    expect(inSchedule(undefined, at(3, 0))).toBe(true);
    expect(inSchedule([], at(3, 0))).toBe(true);
  });

  it('records inside [FROM, TO] (HHMM, local time, TO included to its last second)', () => {
    const office: [number, number][] = [[830, 1700]];
    expect(inSchedule(office, at(8, 29))).toBe(false);
    expect(inSchedule(office, at(8, 30))).toBe(true);
    expect(inSchedule(office, at(17, 0))).toBe(true);
    expect(inSchedule(office, at(17, 1))).toBe(false);
    // The default range covers the whole day.
    expect(inSchedule([[0, 2359]], at(23, 59))).toBe(true);
  });

  it('a range that ends before it starts goes over midnight; several ranges add up', () => {
    const night: [number, number][] = [[2200, 600]];
    expect(inSchedule(night, at(23, 0))).toBe(true);
    expect(inSchedule(night, at(5, 59))).toBe(true);
    expect(inSchedule(night, at(12, 0))).toBe(false);
    expect(
      inSchedule(
        [
          [900, 1000],
          [1400, 1500],
        ],
        at(14, 30),
      ),
    ).toBe(true);
    expect(
      inSchedule(
        [
          [900, 1000],
          [1400, 1500],
        ],
        at(12, 0),
      ),
    ).toBe(false);
  });
});
