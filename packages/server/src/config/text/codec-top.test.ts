import { config as configSchema } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { ConfigSyntaxError, parseConfigText, serializeConfig } from './index.js';

const read = (text: string) => parseConfigText(text).config;
/** parse → serialize → parse gives the same config. */
const roundTrips = (config: Record<string, unknown>) => expect(read(serializeConfig(config))).toEqual(config);

function errorOf(text: string): ConfigSyntaxError {
  try {
    parseConfigText(text);
  } catch (error) {
    if (error instanceof ConfigSyntaxError) return error;
    throw error;
  }
  throw new Error(`no error for ${JSON.stringify(text)}`);
}

describe('globals', () => {
  it('reads port lists, single ports, credentials and scalars', () => {
    const config = read(`http 80 8080;
https 443;
admin_http 9000;
rtmp 1935;
rtsp 554;
api 8081;
edit_auth admin secret;
view_auth viewer "two words";
loglevel debug;
cluster_key 0042;
hostname 1234;
pulsedb /var/lib/pulse;
session_log /var/log/sessions;
nvidia_monitor;
total_bandwidth 100m;
`);
    expect(config).toEqual({
      http: [80, 8080],
      https: [443],
      admin_http: [9000],
      rtmp: 1935,
      rtsp: 554,
      api: 8081,
      edit_auth: { login: 'admin', password: 'secret' },
      view_auth: { login: 'viewer', password: 'two words' },
      loglevel: 'debug',
      cluster_key: '0042',
      hostname: '1234',
      pulsedb: '/var/lib/pulse',
      session_log: '/var/log/sessions',
      nvidia_monitor: true,
      total_bandwidth: 100 * 1024 * 1024,
    });
    expect(configSchema.safeParse(config).success).toBe(true);
  });

  it('writes them back canonically, one per line', () => {
    const text = serializeConfig({
      http: [80, 8080],
      rtmp: 1935,
      edit_auth: { login: 'admin', password: '1234' },
      nvidia_monitor: false,
    });
    expect(text).toBe('http 80 8080;\nrtmp 1935;\nedit_auth admin "1234";\nnvidia_monitor false;\n');
  });

  it('keeps keys it does not know, with their types', () => {
    const config = {
      future_flag: true,
      future_count: 3,
      future_name: 'x',
      future_list: ['a', 1, false],
      future_block: { inner: { deep: '7' } },
    };
    roundTrips(config);
    expect(read('future_list a b;').future_list).toEqual(['a', 'b']);
    expect(read('future_number -1.5e3;').future_number).toBe(-1500);
    expect(read('future_bool false;').future_bool).toBe(false);
  });

  it('writes what plain tokens cannot hold as JSON', () => {
    const config = {
      objects: [{ a: 1 }, { b: [true, null] }],
      matrix: [[1, 2]],
      empty_list: [],
      empty_block: {},
      nothing: null,
    };
    const text = serializeConfig(config);
    expect(text).toContain(`objects json '[{"a":1},{"b":[true,null]}]';`);
    expect(text).toContain('empty_list [];');
    expect(text).toContain('empty_block {}');
    roundTrips(config);
  });

  it('quotes strings that would read back as something else', () => {
    const config = {
      s_number: '12',
      s_bool: 'true',
      s_empty: '',
      s_space: 'a b',
      s_punct: 'a;b{c}#d',
      s_quotes: `say "hi" it's`,
      s_option: 'k=v',
      s_json: 'json',
      s_at: '@ref',
      s_percent: '90%',
      s_brackets: '[a]',
      s_newline: 'a\nb\tc\r',
      s_unicode: 'ünï😀',
    };
    const text = serializeConfig(config);
    expect(text).toContain('s_number "12";');
    expect(text).toContain('s_unicode ünï😀;');
    roundTrips(config);
  });

  it('quotes key names that are not plain names or that a directive owns', () => {
    const config = {
      'two words': 1,
      '': 'empty key',
      'a=b': 2,
      stream: 'a key named like a section',
      '#x': 3,
    };
    const text = serializeConfig(config);
    expect(text).toContain('"two words" 1;');
    expect(text).toContain('"stream" "a key named like a section";');
    roundTrips(config);
  });

  it('reads a key named __proto__ as a plain key', () => {
    const config = read('"__proto__" 1;');
    expect(Object.hasOwn(config, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(config)).toBe(Object.prototype);
  });
});

describe('mapping errors', () => {
  const cases: [string, string, number, number, RegExp][] = [
    ['a stream without a name', 'stream { url x; }', 1, 8, /expected a stream name after 'stream'/],
    [
      'edit_auth without a password',
      'http 80;\nedit_auth admin;',
      2,
      16,
      /expected a password after the login of 'edit_auth'/,
    ],
    ['edit_auth without anything', 'edit_auth;', 1, 10, /expected a login and a password/],
    [
      'a stream defined twice',
      'stream a {}\nstream a {}',
      2,
      1,
      /'streams\.a' is set twice \(first at line 1, column 1\)/,
    ],
    ['a global set twice', 'rtmp 1;\nrtmp 2;', 2, 1, /'rtmp' is set twice/],
    [
      'a section inside a block',
      'stream a {\n  url x;\nstream b {}\n}',
      3,
      1,
      /'stream' is only allowed at the top level: is a '\}' missing/,
    ],
    ['a key given a value and a block', 'meta x { comment y; }', 1, 6, /takes either values or a block/],
    ['bad JSON', `k json '{x}';`, 1, 8, /invalid JSON for 'k'/],
    ['the stream name inside its block', 'stream a { name b; }', 1, 12, /'name' cannot be set here/],
    ['a position inside a block', 'stream a { position 3; }', 1, 12, /position is the order of the items/],
    ['a peer without a host', 'peer;', 1, 5, /expected HOST or HOST:PORT after 'peer'/],
    ['a plugin without a name', 'plugin { }', 1, 8, /expected a plugin name/],
    ['a dvr section without a name', 'dvr { root /s; }', 1, 5, /expected a DVR name after 'dvr'/],
    [
      'a name followed by more',
      'stream a b {}',
      1,
      10,
      /unexpected argument after the stream name of 'stream'/,
    ],
  ];
  it.each(cases)('%s', (_name, text, line, column, message) => {
    const error = errorOf(text);
    expect(error.message).toMatch(message);
    expect([error.line, error.column]).toEqual([line, column]);
  });
});
