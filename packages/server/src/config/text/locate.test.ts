import { describe, expect, it } from 'vitest';
import { locatePath } from './locate.js';
import { parseConfigText } from './serializer.js';

const text = [
  '# ports',
  'http 80;',
  'edit_auth admin pw;',
  '',
  '# the lobby',
  'stream lobby {',
  '  url udp://239.0.0.1:1234;',
  '  url udp://239.0.0.2:1234;   # backup',
  '  title Lobby;',
  '}',
  'source rtmp://a.example {',
  '}',
  'source rtmp://b.example {',
  '}',
  '',
].join('\n');
const { document } = parseConfigText(text);
const lineOf = (...path: (string | number)[]) => locatePath(document, path)?.line;

describe('locatePath: the line a schema issue points at', () => {
  it('names the item of a section and the field inside its block', () => {
    expect(lineOf('streams', 'lobby')).toBe(6);
    expect(lineOf('streams', 'lobby', 'title')).toBe(9);
    expect(lineOf('streams', 'lobby', 'urls', 1, 'url')).toBe(8);
    // A field the block does not write: the item's own line.
    expect(lineOf('streams', 'lobby', 'dvr', 'root')).toBe(6);
  });

  it('finds a top-level setting and a mirror by its position', () => {
    expect(lineOf('http', 0)).toBe(2);
    expect(lineOf('edit_auth', 'login')).toBe(3);
    expect(lineOf('sources', '1', 'urls')).toBe(13);
  });

  it('gives nothing for what the text does not write', () => {
    expect(lineOf('rtmp')).toBeUndefined();
    expect(lineOf()).toBeUndefined();
  });
});
