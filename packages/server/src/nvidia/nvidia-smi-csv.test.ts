import { describe, expect, it } from 'vitest';
import { parseNvidiaSmiCsv } from './nvidia-smi-csv.js';

// Recorded from `nvidia-smi --query-gpu=index,name,utilization.gpu,memory.used,memory.total,
// temperature.gpu,encoder.stats.sessionCount --format=csv,noheader,nounits` on a two-card host
// (driver 535): the second card reads no temperature.
const TWO_CARDS = `0, Tesla T4, 35, 1234, 15360, 52, 3
1, NVIDIA GeForce RTX 3060, 0, 5, 12288, [N/A], 0
`;

describe('parseNvidiaSmiCsv', () => {
  it('reads each card with its load, memory, temperature and encoder sessions', () => {
    expect(parseNvidiaSmiCsv(TWO_CARDS)).toEqual([
      {
        index: 0,
        name: 'Tesla T4',
        utilization_percent: 35,
        memory_used_mb: 1234,
        memory_total_mb: 15360,
        temperature_c: 52,
        encoder_sessions: 3,
      },
      {
        index: 1,
        name: 'NVIDIA GeForce RTX 3060',
        utilization_percent: 0,
        memory_used_mb: 5,
        memory_total_mb: 12288,
        temperature_c: undefined,
        encoder_sessions: 0,
      },
    ]);
  });

  it('finds no card in a driver message or an empty answer', () => {
    expect(parseNvidiaSmiCsv('No devices were found\n')).toEqual([]);
    expect(parseNvidiaSmiCsv('')).toEqual([]);
  });
});
