import { describe, expect, it } from 'vitest';
import { CRASH_LOOP_COUNT, FfmpegHealth } from './ffmpeg-health.js';

describe('ffmpeg crash-loop notice', () => {
  it('appears at the third crash in a row, not before, and goes once the process writes output', () => {
    const health = new FfmpegHealth();
    const owner = {};
    for (let crash = 1; crash < CRASH_LOOP_COUNT; crash++) {
      health.crashed(owner, '/usr/bin/ffmpeg', 'exited on SIGSEGV');
      expect(health.notices().error_ffmpeg_crashing).toBeUndefined();
    }
    health.crashed(owner, '/usr/bin/ffmpeg', 'exited on SIGSEGV');
    expect(CRASH_LOOP_COUNT).toBe(3);
    expect(health.notices().error_ffmpeg_crashing).toBe(
      'ffmpeg keeps crashing (/usr/bin/ffmpeg, 3 times in a row): exited on SIGSEGV',
    );
    health.settled(owner);
    expect(health.notices().error_ffmpeg_crashing).toBeUndefined();
  });
});
