import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '@sluice/api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalOf } from './schedule-api.js';

/**
 * save_ad_schedules' body comes from the network: whatever JSON it holds, the check answers a
 * refusal (a 400) or nothing (the save), and never throws (a 500). Schedule-shaped bodies with
 * junk in each field reach the deeper rules and the file lookup.
 */
let dir: string;
let config: Config;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sluice-ad-fuzz-'));
  await writeFile(join(dir, 'a.mp4'), 'not really a movie');
  config = { vods: { ads: { prefix: 'ads', urls: [{ url: dir }] } } } as Config;
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    '08:00:00',
    '23:59:59',
    '24:00:00',
    'ads/a.mp4',
    'ads/../a.mp4',
    'ads/%2e%2e/x.mp4',
    '',
    ' ',
  ),
);
const number = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, -1, 1, 86_400, Number.MAX_VALUE));
const junk = fc.oneof(text, number, fc.constant(null), fc.boolean(), fc.jsonValue({ maxDepth: 2 }));
const schedule = fc.record(
  {
    name: fc.oneof(text, junk),
    slots: fc.oneof(
      fc.array(fc.record({ from: fc.oneof(text, junk), duration: fc.oneof(number, junk) }), { maxLength: 4 }),
      junk,
    ),
    files: fc.oneof(
      fc.array(fc.record({ name: fc.oneof(text, junk), weight: fc.oneof(number, junk) }), { maxLength: 3 }),
      junk,
    ),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.array(schedule, { maxLength: 3 }));

describe('save_ad_schedules body check (fuzz)', () => {
  it('answers a refusal or nothing for any body, never throwing', () => {
    fc.assert(
      fc.property(body, (value) => {
        const answer = refusalOf(value, config);
        expect(answer === undefined || (typeof answer === 'string' && answer.length > 0)).toBe(true);
      }),
      { numRuns: 10_000 },
    );
  });
});
