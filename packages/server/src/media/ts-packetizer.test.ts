import { describe, expect, it } from 'vitest';
import { TsPacketizer } from './ts-packetizer.js';

const packet = (n: number) => {
  const p = Buffer.alloc(188, n);
  p[0] = 0x47;
  return p;
};

describe('TsPacketizer', () => {
  it('passes an aligned chunk through without copying', () => {
    const chunk = Buffer.concat([packet(1), packet(2)]);
    expect(new TsPacketizer().push(chunk)).toBe(chunk);
  });

  it('joins packets split across chunks', () => {
    const data = Buffer.concat([packet(1), packet(2), packet(3)]);
    const p = new TsPacketizer();
    const out = Buffer.concat([
      p.push(data.subarray(0, 100)),
      p.push(data.subarray(100, 400)),
      p.push(data.subarray(400)),
    ]);
    expect(out.equals(data)).toBe(true);
  });

  it('skips garbage and re-locks on a sync byte that repeats 188 bytes on', () => {
    const garbage = Buffer.from([0x00, 0x47, 0x01, 0x02]);
    const p = new TsPacketizer();
    const out = p.push(Buffer.concat([garbage, packet(1), packet(2), packet(3)]));
    expect(out.equals(Buffer.concat([packet(1), packet(2), packet(3)]))).toBe(true);
    expect(p.droppedBytes).toBe(4);
  });
});
