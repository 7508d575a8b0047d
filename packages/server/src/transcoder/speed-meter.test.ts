import { describe, expect, it } from 'vitest';
import { SpeedMeter } from './speed-meter.js';

/** Feeds one -progress block, as ffmpeg writes it each second. */
const block = (meter: SpeedMeter, outSeconds: number, wallMs: number) => {
  for (const line of [
    `frame=${outSeconds * 25}`,
    'stream_0_0_q=28.0',
    `out_time_us=${outSeconds * 1e6}`,
    'speed=1x',
  ])
    expect(meter.line(line, wallMs)).toBe(true);
  meter.line('progress=continue', wallMs);
};

describe('SpeedMeter', () => {
  it('measures media time made per wall second over the window, once a whole window is seen', () => {
    const meter = new SpeedMeter(10_000);
    for (let s = 0; s <= 5; s++) block(meter, s, s * 1000);
    expect(meter.speed(5000)).toBeUndefined();
    for (let s = 6; s <= 20; s++) block(meter, s * 0.8, s * 1000);
    expect(meter.speed(20_000)).toBeCloseTo(0.8, 2);
  });

  it('holds real time at 1x, and counts a child that stopped reporting as making nothing', () => {
    const meter = new SpeedMeter(10_000);
    for (let s = 0; s <= 12; s++) block(meter, s, s * 1000);
    expect(meter.speed(12_000)).toBeCloseTo(1, 2);
    expect(meter.speed(22_000)).toBeLessThan(0.95);
  });

  it('leaves every other line to the log', () => {
    const meter = new SpeedMeter();
    expect(meter.line('[info] Stream mapping:')).toBe(false);
    expect(meter.line('[error] pipe:0: Invalid data found when processing input')).toBe(false);
  });
});
