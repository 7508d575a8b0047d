import { describe, expect, it } from 'vitest';
import { ConfigSyntaxError } from './errors.js';
import { parseTree } from './parser.js';
import type { Word } from './tree.js';

const first = (text: string) => {
  const entry = parseTree(text).entries[0];
  if (!entry) throw new Error('no entry');
  return entry;
};
const words = (text: string) => first(text).directive.args.map((a) => a as Word);

function errorOf(text: string): ConfigSyntaxError {
  try {
    parseTree(text);
  } catch (error) {
    if (error instanceof ConfigSyntaxError) return error;
    throw error;
  }
  throw new Error(`no error for ${JSON.stringify(text)}`);
}

describe('tokens', () => {
  it('reads bare and quoted arguments, with the escapes \\" \\\\ \\n', () => {
    const args = words(`title "a \\"b\\" \\\\ c\\nd" 'it\\'s' bare;`);
    expect(args.map((a) => [a.text, a.bare])).toEqual([
      ['a "b" \\ c\nd', false],
      ["it's", false],
      ['bare', true],
    ]);
  });

  it('keeps an unknown escape as written, so Windows paths survive', () => {
    expect(words('path "C:\\dir";')[0]?.text).toBe('C:\\dir');
  });

  it('reads key=value options, with a quoted value when it holds spaces', () => {
    const [url, priority, agent] = words('url udp://h:1 priority=1 user_agent="VLC 3";');
    expect(url?.option).toBeUndefined();
    expect(priority?.option).toEqual({ key: 'priority', value: '1', valueBare: true });
    expect(agent?.option).toEqual({ key: 'user_agent', value: 'VLC 3', valueBare: false });
  });

  it('does not take a URL query for an option', () => {
    expect(words('url http://h/p?a=1&b=2;')[0]?.option).toBeUndefined();
  });

  it('starts a comment only where a token could start', () => {
    expect(words('url http://h/#frag # a comment\n;').map((w) => w.text)).toEqual(['http://h/#frag']);
  });

  it('reads [lists], but keeps brackets inside a token', () => {
    const list = first('k [a "b c" 1];').directive.args[0];
    expect(list?.kind).toBe('list');
    expect(list?.kind === 'list' && list.items.map((w) => w.text)).toEqual(['a', 'b c', '1']);
    expect(words('url udp://[ff02::1]:1234;')[0]?.text).toBe('udp://[ff02::1]:1234');
  });

  it('accepts a quoted directive name', () => {
    const d = first('"my key" 1;').directive;
    expect([d.name, d.nameBare]).toEqual(['my key', false]);
  });
});

describe('directives and trivia', () => {
  it('builds blocks and keeps the text around every directive', () => {
    const text = '# head\n\nstream a { # opens\n  url x;   # input\n  # end of block\n} # closes\nhttp 80;';
    const tree = parseTree(text);
    const [stream, http] = tree.entries;
    expect(stream?.leading).toBe('# head\n\n');
    expect(stream?.trailing).toBe(' # closes\n');
    expect(stream?.block).toEqual({
      header: 'stream a {',
      headerTrailing: ' # opens\n',
      closeLeading: '  # end of block\n',
    });
    expect(stream?.directive.children?.[0]).toMatchObject({
      leading: '  ',
      raw: 'url x;',
      trailing: '   # input\n',
    });
    expect(http).toMatchObject({ leading: '', raw: 'http 80;', trailing: '' });
    const rebuilt = tree.entries.map((e) => e.leading + e.raw + e.trailing).join('') + tree.closing;
    expect(rebuilt).toBe(text);
  });

  it('allows arguments on continuation lines indented deeper than the name', () => {
    expect(words('url udp://h:1\n    priority=1;').map((w) => w.text)).toEqual(['udp://h:1', 'priority=1']);
  });

  it('notes CRLF files, so re-printed lines match them', () => {
    expect(parseTree('http 80;\r\nrtmp 1935;\r\n').eol).toBe('\r\n');
  });
});

describe('syntax errors', () => {
  const cases: [string, string, number, number, RegExp][] = [
    ['unterminated string', 'http 80;\ntitle "abc;\n', 2, 7, /unterminated string/],
    [
      'missing ; before }',
      'stream a {\n  url x\n}\n',
      2,
      8,
      /expected ';' or '\{' after the arguments of 'url'/,
    ],
    [
      'missing ; before the next line',
      'http 8080\nrtmp 1935;\n',
      1,
      10,
      /expected ';' or '\{' after the arguments of 'http'/,
    ],
    [
      'missing ; at the end of the file',
      'rtmp 1935',
      1,
      10,
      /after the arguments of 'rtmp', found the end of the file/,
    ],
    ['a } too many', 'http 80;\n}\n', 2, 1, /unbalanced braces: unexpected '\}'/],
    ['a { never closed', 'stream a {\n  url x;\n', 1, 10, /the '\{' of 'stream' is never closed/],
    ['a stray ;', 'http 80;;\n', 1, 9, /expected a directive name, found ';'/],
    ['text right after a closing quote', 'title "a"b;', 1, 10, /after the closing quote/],
    ['an unclosed list', 'k [a b;\n', 1, 7, /expected '\]' to close the list opened at line 1, column 3/],
    ['a nested list', 'k [a [b]];', 1, 6, /lists cannot be nested/],
  ];
  it.each(cases)('%s', (_name, text, line, column, message) => {
    const error = errorOf(text);
    expect([error.line, error.column]).toEqual([line, column]);
    expect(error.message).toMatch(message);
    expect(error.message.startsWith(`line ${line}, column ${column}: `)).toBe(true);
  });
});
