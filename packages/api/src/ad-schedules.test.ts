import { describe, expect, it } from 'vitest';
import { AD_MESSAGES, adScheduleProblems, nextAdSlot, type AdSchedule } from './ad-schedules.js';

const schedule = (over: Partial<AdSchedule> = {}): AdSchedule => ({
  name: 'morning',
  slots: [{ from: '08:00:00', duration: 30 }],
  files: [{ name: 'vod/ad.mp4', weight: 1 }],
  ...over,
});

describe('ad schedule rules (spec 002 §5)', () => {
  it('accepts a well-formed schedule', () => {
    expect(adScheduleProblems([schedule(), schedule({ name: 'evening' })])).toEqual([]);
  });

  it('gives each spec message at its field', () => {
    const problems = adScheduleProblems([
      schedule({ name: '' }),
      schedule({ name: 'dup' }),
      schedule({
        name: 'dup',
        slots: [
          { from: '8:00', duration: 10 },
          { from: '09:00:00', duration: 0 },
          { from: '10:00:00', duration: 5 },
          { from: '10:00:00', duration: 5 },
        ],
        files: [{ name: 'vod/a.mp4', weight: 0 }],
      }),
    ]);
    expect(problems).toEqual([
      { schedule: 0, path: ['name'], message: AD_MESSAGES.nameRequired },
      { schedule: 1, path: ['name'], message: AD_MESSAGES.nameUnique },
      { schedule: 2, path: ['name'], message: AD_MESSAGES.nameUnique },
      { schedule: 2, path: ['slots', 0, 'from'], message: 'Slot format is HH:mm:ss' },
      { schedule: 2, path: ['slots', 1, 'duration'], message: 'Should be greater, than 0' },
      { schedule: 2, path: ['slots', 2, 'from'], message: 'Time slot start time should be unique' },
      { schedule: 2, path: ['slots', 3, 'from'], message: 'Time slot start time should be unique' },
      { schedule: 2, path: ['files', 0, 'weight'], message: 'Should be greater, than 0' },
    ]);
  });

  it('refuses a slot running into the next one, also across midnight', () => {
    const slots = [
      { from: '10:00:30', duration: 10 },
      { from: '10:00:00', duration: 31 },
      { from: '23:59:50', duration: 20 },
      { from: '00:00:05', duration: 5 },
    ];
    expect(adScheduleProblems([schedule({ slots })]).map((p) => [p.path, p.message])).toEqual([
      [['slots', 1, 'from'], 'Time slot overlaps the next one, which starts at 10:00:30'],
      [['slots', 2, 'from'], 'Time slot overlaps the next one, which starts at 00:00:05'],
    ]);
  });
});

describe('Add slot (spec 002 §9)', () => {
  it('starts at 00:00:00 for 15 s, then one hour later, wrapping after hour 22, shifting taken starts by 5 minutes', () => {
    expect(nextAdSlot([])).toEqual({ from: '00:00:00', duration: 15 });
    expect(nextAdSlot([{ from: '08:10:05', duration: 30 }])).toEqual({ from: '09:10:05', duration: 15 });
    expect(nextAdSlot([{ from: '22:00:00', duration: 1 }]).from).toBe('23:00:00');
    expect(nextAdSlot([{ from: '23:30:00', duration: 1 }]).from).toBe('00:30:00');
    const taken = [
      { from: '01:00:00', duration: 1 },
      { from: '00:00:00', duration: 1 },
    ];
    expect(nextAdSlot(taken).from).toBe('01:05:00');
    expect(
      nextAdSlot([
        { from: '01:55:00', duration: 1 },
        { from: '00:55:00', duration: 1 },
      ]).from,
    ).toBe('01:50:00');
  });
});
