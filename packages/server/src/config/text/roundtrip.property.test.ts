import { config as configSchema } from '@sluice/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfigText, serializeConfig } from './index.js';
import { configArb } from './testing/config-arbitrary.js';

describe('round trip of generated configs', () => {
  it('generates configs the schema accepts', () => {
    fc.assert(
      fc.property(configArb, (c) => {
        expect(configSchema.safeParse(c).error).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('parse(serialize(C)) gives C back', () => {
    fc.assert(
      fc.property(configArb, (c) => {
        const text = serializeConfig(c);
        expect(parseConfigText(text).config).toEqual(c);
      }),
      { numRuns: 300 },
    );
  });
});
