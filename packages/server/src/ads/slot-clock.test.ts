import { describe, expect, it } from 'vitest';
import { currentOrNextSlot, timeOfDay } from './slot-clock.js';

const at = (y: number, mo: number, d: number, h: number, mi: number, s = 0) =>
  new Date(y, mo - 1, d, h, mi, s).getTime();

describe('slot clock (server local time)', () => {
  it('gives the next slot of the day, then the first of tomorrow once the last is over', () => {
    const slots = [
      { from: '10:00:00', duration: 30 },
      { from: '18:30:00', duration: 60 },
    ];
    const next = currentOrNextSlot(slots, at(2026, 3, 10, 12, 0));
    expect(next?.startMs).toBe(at(2026, 3, 10, 18, 30));
    expect(next?.endMs).toBe(at(2026, 3, 10, 18, 31));
    expect(currentOrNextSlot(slots, at(2026, 3, 10, 19, 0))?.startMs).toBe(at(2026, 3, 11, 10, 0));
  });

  it('gives the slot that is running, until its last second', () => {
    const slots = [{ from: '10:00:00', duration: 30 }];
    expect(currentOrNextSlot(slots, at(2026, 3, 10, 10, 0, 29))?.startMs).toBe(at(2026, 3, 10, 10, 0));
    expect(currentOrNextSlot(slots, at(2026, 3, 10, 10, 0, 30))?.startMs).toBe(at(2026, 3, 11, 10, 0));
  });

  it("keeps yesterday's slot that runs over midnight", () => {
    const slots = [{ from: '23:59:40', duration: 60 }];
    const running = currentOrNextSlot(slots, at(2026, 3, 11, 0, 0, 10));
    expect(running?.startMs).toBe(at(2026, 3, 10, 23, 59, 40));
    expect(running?.endMs).toBe(at(2026, 3, 11, 0, 0, 40));
  });

  it('puts a slot at its wall-clock time on a day of 23 or 25 hours, lasting its real seconds', () => {
    // Whatever the zone the tests run in: the slot is found at 12:00 local on the day after the
    // day `now` falls on, though that day may be 23, 24 or 25 hours after `now`'s noon.
    for (const [mo, d] of [
      [3, 29],
      [10, 25],
      [3, 8],
      [11, 1],
    ] as const) {
      const next = currentOrNextSlot([{ from: '12:00:00', duration: 90 }], at(2026, mo, d, 13, 0));
      const start = new Date(next!.startMs);
      expect([start.getDate(), start.getHours(), start.getMinutes()]).toEqual([d + 1, 12, 0]);
      expect(next!.endMs - next!.startMs).toBe(90_000);
    }
  });

  it('skips slots that are not a time of day or last no time', () => {
    expect(timeOfDay('24:00:00')).toBeUndefined();
    expect(timeOfDay('7:00:00')).toBeUndefined();
    expect(
      currentOrNextSlot(
        [
          { from: 'x', duration: 10 },
          { from: '10:00:00', duration: 0 },
        ],
        0,
      ),
    ).toBeUndefined();
  });
});
