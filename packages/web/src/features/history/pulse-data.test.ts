import { describe, expect, it } from 'vitest';
import { hasPulseData } from './pulse-data.js';

describe('pulse data', () => {
  it('is present once any series has a value other than zero', () => {
    expect(hasPulseData(undefined)).toBe(false);
    expect(hasPulseData([{ label: 'clients', points: [] }])).toBe(false);
    expect(
      hasPulseData([
        { label: 'input', points: [[60_000, 0]] },
        {
          label: 'clients',
          points: [
            [60_000, 0],
            [120_000, 0],
          ],
        },
      ]),
    ).toBe(false);
    expect(
      hasPulseData([
        {
          label: 'output',
          points: [
            [60_000, 0],
            [120_000, 12],
          ],
        },
      ]),
    ).toBe(true);
  });
});
