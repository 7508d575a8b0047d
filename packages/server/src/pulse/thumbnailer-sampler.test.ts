import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ThumbnailerUsage } from '../delivery/thumbnails.js';
import { residentBytes, ThumbnailerSampler } from './thumbnailer-sampler.js';

describe('ThumbnailerSampler', () => {
  it("reads a running decoder's resident memory and the bytes moved over the interval as kbit/s", async () => {
    // A real process standing in for a decoder: a node holding a 64 MiB buffer it has written to.
    const child = spawn(process.execPath, [
      '-e',
      'const b = Buffer.alloc(64 * 1048576, 1); process.stdout.write("ready"); setInterval(() => b[0]++, 1000);',
    ]);
    try {
      await once(child.stdout, 'data');
      const usage: ThumbnailerUsage = { pids: [child.pid!], heldBytes: 5000, bytesIn: 0, bytesOut: 0 };
      const sampler = new ThumbnailerSampler(() => usage);
      expect(sampler.sample(10_000)).toBeUndefined();
      // Two seconds: 250,000 bytes in is 1,000 kbit/s, 25,000 out 100 kbit/s.
      usage.bytesIn = 250_000;
      usage.bytesOut = 25_000;
      const s = sampler.sample(12_000)!;
      expect([s.thumbnailer_in, s.thumbnailer_out]).toEqual([1000, 100]);
      expect(s.thumbnailer_memusage).toBeGreaterThan(64 * 1048576 + 5000);
      expect(s.thumbnailer_memusage).toBeLessThan(200 * 1048576);
    } finally {
      child.kill();
    }
    // A decoder that ended since it was listed holds nothing.
    await once(child, 'exit');
    expect(residentBytes('/proc', child.pid!)).toBe(0);
  });
});
