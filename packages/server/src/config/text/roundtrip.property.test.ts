import { config as configSchema } from '@sluice/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfigText, serializeConfig, serializeConfigWithDocument } from './index.js';
import { configArb } from './testing/config-arbitrary.js';
import { relayout } from './testing/relayout.js';

describe('round trip of generated configs', () => {
  it('generates configs the schema accepts', () => {
    fc.assert(
      fc.property(configArb, (c) => {
        expect(configSchema.safeParse(c).error).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('writes the same canonical text as a merge over an empty file', () => {
    fc.assert(
      fc.property(configArb, (c) => {
        const empty = parseConfigText('').document;
        expect(serializeConfigWithDocument(c, empty).text).toBe(serializeConfig(c));
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

describe('hand-written layouts', () => {
  it('read as the same config and come back byte for byte', () => {
    fc.assert(
      fc.property(configArb, fc.array(fc.nat(), { minLength: 1, maxLength: 64 }), (c, tape) => {
        const text = relayout(serializeConfig(c), tape);
        const { config, document } = parseConfigText(text);
        expect(config).toEqual(c);
        expect(serializeConfig(config, document)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
