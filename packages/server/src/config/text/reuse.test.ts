import { describe, expect, it, vi } from 'vitest';
import { topSpec } from './codec/specs.js';
import { type ConfigDocument, treeOf } from './document.js';
import { parseConfigText, serializeConfig, serializeConfigWithDocument } from './index.js';

type Item = Record<string, unknown>;
type Config = Record<string, unknown> & { streams: Record<string, Item> };

const COUNT = 50;
const stream = (i: number) =>
  `\n# camera ${i}\nstream cam${i} {\n  url udp://h/${i};   # input\n  title "Camera ${i}";\n}\n`;
const FILE = `# streams\nhttp 80;\n${Array.from({ length: COUNT }, (_v, i) => stream(i)).join('')}# end\n`;

function parsed(text: string): { config: Config; document: ConfigDocument } {
  const { config, document } = parseConfigText(text);
  return { config: config as Config, document };
}

/** The keys of the stream items encoded while `run` runs (a changed item: its old and new form). */
function encodedDuring<T>(run: () => T): { result: T; encoded: unknown[] } {
  const section = topSpec().byKey.get('streams')?.section;
  if (!section) throw new Error('streams is a section');
  const spy = vi.spyOn(section, 'encodeItem');
  try {
    const result = run();
    return { result, encoded: [...new Set(spy.mock.calls.map((call) => call[0]))] };
  } finally {
    spy.mockRestore();
  }
}

/** The streams without one, positions renumbered the way normalizeConfig does: shifted items are copies. */
function without(streams: Record<string, Item>, name: string): Record<string, Item> {
  const kept = Object.entries(streams).filter(([key]) => key !== name);
  return Object.fromEntries(
    kept.map(([key, item], i) => [key, item.position === i ? item : { ...item, position: i }]),
  );
}

/** What a text's own parse says, span by span. */
function spans(document: ConfigDocument) {
  const tree = treeOf(document);
  return {
    entries: tree.entries.map((e) => [e.leading, e.raw, e.trailing]),
    closing: tree.closing,
    eol: tree.eol,
  };
}

describe('edits over a large file', () => {
  it('re-print only the item that changed, and share the other entries with the old document', () => {
    const { config, document } = parsed(FILE);
    const cam7 = { ...config.streams.cam7, title: 'Seven' };
    const next = { ...config, streams: { ...config.streams, cam7 } };
    const { result, encoded } = encodedDuring(() => serializeConfigWithDocument(next, document));
    expect(encoded).toEqual(['cam7']);
    expect(result.text).toBe(FILE.replace('title "Camera 7";', 'title Seven;'));
    const before = treeOf(document).entries;
    const after = treeOf(result.document).entries;
    // Entry 0 is `http`, entry i + 1 is cam{i}.
    after.forEach((entry, i) => {
      if (i !== 8) expect(entry).toBe(before[i]);
    });
  });

  it('delete an item without re-printing the items whose position shifted', () => {
    const { config, document } = parsed(FILE);
    const next = { ...config, streams: without(config.streams, 'cam0') };
    const { result, encoded } = encodedDuring(() => serializeConfigWithDocument(next, document));
    expect(encoded).toEqual([]);
    expect(result.text).toBe(FILE.replace(stream(0), ''));
    const before = treeOf(document).entries;
    treeOf(result.document).entries.forEach((entry, i) => expect(entry).toBe(before[i === 0 ? 0 : i + 1]));
  });

  it('chain over the returned document as over the parsed text, keeping every comment', () => {
    let { config, document } = parsed(FILE);
    const edits: ((c: Config) => Config)[] = [
      (c) => ({ ...c, streams: { ...c.streams, cam3: { ...c.streams.cam3, static: true } } }),
      (c) => ({ ...c, streams: without(c.streams, 'cam4') }),
      (c) => ({ ...c, rtmp: 1935, streams: { ...c.streams, cam50: { name: 'cam50', position: 49 } } }),
      (c) => ({ ...c, streams: without(c.streams, 'cam49') }),
    ];
    for (const edit of edits) {
      const next = edit(config);
      const result = serializeConfigWithDocument(next, document);
      const reparsed = parseConfigText(result.text);
      expect(result.text).toBe(serializeConfig(next, parsed(serializeConfig(config, document)).document));
      expect(spans(result.document)).toEqual(spans(reparsed.document));
      expect(reparsed.config).toEqual(next);
      ({ document } = result);
      config = next;
    }
    const text = serializeConfig(config, document);
    for (const i of [0, 3, 5, 48])
      expect(text).toContain(`# camera ${i}\nstream cam${i} {\n  url udp://h/${i};   # input\n`);
    expect(text).toContain('stream cam3 {\n  url udp://h/3;   # input\n  title "Camera 3";\n  static;\n}\n');
    expect(text).not.toContain('# camera 4\n');
    expect(text.endsWith('\nstream cam50 {}\n# end\n')).toBe(true);
  });

  it('write a new file whose document serves the next edit', () => {
    const { config } = parsed(FILE);
    const fresh = serializeConfigWithDocument(config);
    expect(fresh.text).toBe(serializeConfig(config));
    expect(spans(fresh.document)).toEqual(spans(parseConfigText(fresh.text).document));
    const next = {
      ...config,
      streams: { ...config.streams, cam1: { ...config.streams.cam1, title: 'One' } },
    };
    const { encoded } = encodedDuring(() => serializeConfigWithDocument(next, fresh.document));
    expect(encoded).toEqual(['cam1']);
  });

  it('read the whole text back when a kept directive would read differently where it now stands', () => {
    // `3` continues `b 2` only while it is indented deeper than `b`: a longer `a` line moves `b` right.
    const { config, document } = parseConfigText('a 1; b 2\n      3;\n');
    expect(config).toEqual({ a: 1, b: [2, 3] });
    const next = { ...config, a: 100 };
    const out = serializeConfigWithDocument(next, document);
    expect(out.text).toBe(serializeConfig(next));
    expect(parseConfigText(out.text).config).toEqual(next);
  });
});
