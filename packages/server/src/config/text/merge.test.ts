import { describe, expect, it } from 'vitest';
import { parseConfigText, serializeConfig } from './index.js';

type Config = Record<string, unknown>;
type Item = Config & { urls?: Config[] };
type Streams = Record<string, Item>;

/** A stream of an edited config; the tests only name streams that exist. */
function stream(c: { streams: Streams }, name: string): Item {
  const item = c.streams[name];
  if (!item) throw new Error(`no stream ${name}`);
  return item;
}

/** Parses `text`, applies `edit` to a copy of its config and writes it back over the document. */
function edited(text: string, edit: (config: Config & { streams: Streams }) => void): string {
  const { config, document } = parseConfigText(text);
  const copy = structuredClone(config) as Config & { streams: Streams };
  edit(copy);
  const out = serializeConfig(copy, document);
  expect(parseConfigText(out).config).toEqual(parseConfigText(serializeConfig(copy)).config);
  return out;
}

const FILE = `# Sluice
http 80;   # web

# --- streams ---

# first
stream a {
  url udp://1;   # in
  title A;
}

# second
stream b {
  url udp://2;
}
# the end
`;

describe('merging into the previous text', () => {
  it('writes an unchanged config back byte for byte', () => {
    const { config, document } = parseConfigText(FILE);
    expect(serializeConfig(config, document)).toBe(FILE);
  });

  it('re-prints only the changed directive, between its comments', () => {
    const out = edited(FILE, (c) => {
      (stream(c, 'a').urls as Config[])[0] = { url: 'udp://9' };
    });
    expect(out).toBe(FILE.replace('url udp://1;', 'url udp://9;'));
  });

  it('drops a deleted item with its own comments, keeping a heading above it', () => {
    const out = edited(FILE, (c) => {
      delete c.streams.a;
    });
    expect(out).toBe(
      '# Sluice\nhttp 80;   # web\n\n# --- streams ---\n\n# second\nstream b {\n  url udp://2;\n}\n# the end\n',
    );
  });

  it('puts a new item after the last of its kind, and a new global after the globals', () => {
    const out = edited(FILE, (c) => {
      c.streams.c = { name: 'c', position: 2, urls: [{ url: 'udp://3' }] };
      c.rtmp = 1935;
    });
    expect(out).toBe(
      FILE.replace('http 80;   # web\n', 'http 80;   # web\nrtmp 1935;\n').replace(
        '  url udp://2;\n}\n',
        '  url udp://2;\n}\n\nstream c {\n  url udp://3;\n}\n',
      ),
    );
  });

  it('moves reordered items with their own comments', () => {
    const out = edited(FILE, (c) => {
      stream(c, 'a').position = 1;
      stream(c, 'b').position = 0;
    });
    expect(out).toBe(`# Sluice
http 80;   # web

# --- streams ---

# second
stream b {
  url udp://2;
}

# first
stream a {
  url udp://1;   # in
  title A;
}
# the end
`);
  });

  it('keeps the comments of unchanged children when a block changes', () => {
    const text =
      'stream a {\n  # in\n  url udp://1; # one\n  # two\n  url udp://2;\n  # dvr\n  dvr /s 1d;\n  # end of a\n}\n';
    const out = edited(text, (c) => {
      const urls = stream(c, 'a').urls as Config[];
      urls.splice(0, 1);
      urls.push({ url: 'udp://3' });
      stream(c, 'a').title = 'A';
    });
    expect(out).toBe(
      'stream a {\n  # two\n  url udp://2;\n  url udp://3;\n  # dvr\n  dvr /s 1d;\n  title A;\n  # end of a\n}\n',
    );
  });

  it('keeps a trailing comment on a changed line', () => {
    expect(edited('rtmp 1935; # rtmp port\n', (c) => (c.rtmp = 1936))).toBe('rtmp 1936; # rtmp port\n');
  });

  it('keeps one-line blocks on one line', () => {
    const out = edited('stream a { url x; title A; }\n', (c) => {
      stream(c, 'a').title = 'B';
      stream(c, 'a').static = true;
    });
    expect(out).toBe('stream a { url x; title B; static; }\n');
  });

  it('opens an empty block onto lines at the right indentation', () => {
    const out = edited('stream a {\n  meta {}\n}\n', (c) => {
      stream(c, 'a').meta = { comment: 'hi' };
    });
    expect(out).toBe('stream a {\n  meta {\n    comment hi;\n  }\n}\n');
  });

  it('keeps hand-written forms the writer would not choose, while they mean the same', () => {
    const text =
      'auth_backend ab {\n  allow ip a b; # both\n  deny token t;\n}\nstream s { dvr { root /x; } }\n';
    const { config, document } = parseConfigText(text);
    expect(serializeConfig(config, document)).toBe(text);
    const out = edited(text, (c) => {
      ((c.auth_backends as Record<string, Config>).ab?.deny as Config).tokens = ['t', 'u'];
    });
    expect(out).toBe(
      'auth_backend ab {\n  allow ip a b; # both\n  deny token t;\n  deny token u;\n}\nstream s { dvr { root /x; } }\n',
    );
  });

  it('matches mirrors by content, so deleting the first keeps the others comments', () => {
    const text = '# one\nsource rtmp://1;\n# two\nsource rtmp://2;\n';
    const out = edited(text, (c) => {
      c.sources = { '0': { position: 0, urls: ['rtmp://2'] } };
    });
    expect(out).toBe('# two\nsource rtmp://2;\n');
  });

  it('keeps CRLF line breaks in re-printed parts', () => {
    const out = edited('stream a {\r\n  url x;\r\n}\r\n', (c) => {
      stream(c, 'a').meta = { comment: 'c' };
    });
    expect(out).toBe('stream a {\r\n  url x;\r\n  meta {\r\n    comment c;\r\n  }\r\n}\r\n');
  });

  it('handles a file that ends in a comment without a line break', () => {
    const out = edited('rtmp 1935; # last', (c) => {
      c.http = [80];
      c.streams = { a: { name: 'a', position: 0 } };
    });
    expect(out).toBe('rtmp 1935; # last\nhttp 80;\n\nstream a {}\n');
  });

  it('gives each reordered item its own line when they shared one', () => {
    const out = edited('stream a { url x; } stream b { url y; }', (c) => {
      stream(c, 'a').position = 1;
      stream(c, 'b').position = 0;
    });
    expect(out).toBe('stream b { url y; }\nstream a { url x; }\n');
  });

  it('writes new directives below a file made only of comments', () => {
    expect(edited('# just a comment\n', (c) => (c.rtmp = 1935))).toBe('# just a comment\nrtmp 1935;\n');
  });

  it('indents new lines like their neighbours, tabs included', () => {
    expect(edited('stream a {\n\turl x;\n}\n', (c) => (stream(c, 'a').title = 'T'))).toBe(
      'stream a {\n\turl x;\n\ttitle T;\n}\n',
    );
  });
});
