import { tokenize } from '../lexer.js';

/**
 * Re-lays out a text token by token, as a person might write it: other spacing and indentation,
 * tabs, punctuation glued to words, blank lines, own-line and trailing comments; with `joinLines`,
 * some directives that were on lines of their own share one. `tape` drives the choices.
 */
export function relayout(text: string, tape: readonly number[], joinLines = false): string {
  const tokens = tokenize(text);
  let k = 0;
  const pick = (n: number) => (tape[k++ % tape.length] ?? 0) % n;
  let out = '';
  for (let t = 0; t < tokens.length - 1; t++) {
    const a = tokens[t] as (typeof tokens)[number];
    const b = tokens[t + 1] as (typeof tokens)[number];
    out += text.slice(a.start, a.end);
    const gap = text.slice(a.end, b.start);
    if (gap.includes('\n') && !(joinLines && pick(4) === 0)) {
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
