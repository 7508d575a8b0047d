import { config as configSchema } from '@sluice/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfigText, serializeConfig, serializeConfigWithDocument } from './index.js';
import { tokenize } from './lexer.js';
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

/**
 * Re-lays out a text token by token, as a person might write it: other spacing and indentation,
 * tabs, punctuation glued to words, blank lines, own-line and trailing comments. `tape` drives the
 * choices.
 */
function relayout(text: string, tape: readonly number[]): string {
  const tokens = tokenize(text);
  let k = 0;
  const pick = (n: number) => (tape[k++ % tape.length] ?? 0) % n;
  let out = '';
  for (let t = 0; t < tokens.length - 1; t++) {
    const a = tokens[t] as (typeof tokens)[number];
    const b = tokens[t + 1] as (typeof tokens)[number];
    out += text.slice(a.start, a.end);
    const gap = text.slice(a.end, b.start);
    if (gap.includes('\n')) {
      const comment = pick(3) === 0 ? ` # trailing ${t}` : '';
      const blank = pick(4) === 0 ? '\n' : '';
      const own = pick(3) === 0 ? `# own ${t}\n` : '';
      out += `${comment}\n${blank}${own}${['', ' ', '\t', '    '][pick(4)]}`;
    } else {
      // Two words, or a word and a list, need a space between them; punctuation does not.
      const glue = !(a.kind === 'word' && (b.kind === 'word' || b.kind === '['));
      out += glue && pick(2) === 0 ? '' : [' ', '  ', '\t'][pick(3)];
    }
  }
  return out;
}

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
