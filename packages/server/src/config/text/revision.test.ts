import { describe, expect, it } from 'vitest';
import { parseConfigText, revisionOf, serializeConfigWithDocument } from './index.js';

/** A file of `n` streams, `title` for stream `at`. */
function file(n: number, at = -1, title = 'changed'): string {
  let text = '# cameras\nhttp 8080;\n';
  for (let i = 0; i < n; i++)
    text += `\nstream cam${i} {\n  url udp://239.0.0.1:${1000 + i};\n  title "${i === at ? title : `Camera ${i}`}";\n}\n`;
  return text;
}

describe('the config revision', () => {
  it('changes with one character anywhere, and comes back with the text', () => {
    const base = revisionOf(parseConfigText(file(700)).document);
    const seen = new Set([base]);
    // First page, a middle page, the last (partial) page.
    for (const at of [3, 400, 699]) seen.add(revisionOf(parseConfigText(file(700, at)).document));
    seen.add(revisionOf(parseConfigText(`${file(700)}# end\n`).document));
    expect(seen.size).toBe(5);
    expect(revisionOf(parseConfigText(file(700)).document)).toBe(base);
  });

  it('of an edit reusing unchanged pages equals that of the text read afresh', () => {
    const first = parseConfigText(file(700));
    const { config } = first;
    let { document } = first;
    const seen = new Set([revisionOf(document)]);
    for (const at of [5, 650, 300]) {
      const streams = config.streams as Record<string, Record<string, unknown>>;
      streams[`cam${at}`] = { ...streams[`cam${at}`], title: 'changed' };
      const next = serializeConfigWithDocument(config, document, new Map([['streams', [`cam${at}`]]]));
      const revision = revisionOf(next.document);
      expect(revision).toBe(revisionOf(parseConfigText(next.text).document));
      seen.add(revision);
      ({ document } = next);
    }
    expect(seen.size).toBe(4);
  });
});
