import { describe, expect, it } from 'vitest';
import { KEY_ERROR } from '../../lib/key-value.js';
import { parseExtra, rowsToScripts, scriptErrors, scriptsToRows } from './web-script-rows.js';

const row = (id: number, prefix: string, path: string, extra = '') => ({ id, prefix, path, extra });

describe('web script rows', () => {
  it('lists scripts in position order and back, positions following the rows', () => {
    let id = 0;
    const rows = scriptsToRows(
      {
        b: { prefix: 'b', path: '/b', position: 1 },
        a: { prefix: 'a', path: '/a', extra: { x: '1' }, position: 0 },
      },
      () => ++id,
    );
    expect(rows).toEqual([row(1, 'a', '/a', 'x=1'), row(2, 'b', '/b')]);
    expect(rowsToScripts([rows[1]!, rows[0]!])).toEqual({
      b: { prefix: 'b', path: '/b', position: 0 },
      a: { prefix: 'a', path: '/a', extra: { x: '1' }, position: 1 },
    });
  });

  it('skips empty rows and gives null for none', () => {
    expect(rowsToScripts([row(1, '', '')])).toBeNull();
  });

  it('parses extra params as key=value pairs with the key/value rules', () => {
    expect(parseExtra(' a=1  b=x=y ')).toEqual({ extra: { a: '1', b: 'x=y' } });
    expect(parseExtra('')).toEqual({});
    expect(parseExtra('1a=2').error).toBe(KEY_ERROR);
    expect(parseExtra('novalue').error).toBeDefined();
  });

  it('requires a prefix and a path and refuses a repeated prefix', () => {
    const errors = scriptErrors([
      row(1, '', '/p'),
      row(2, 'a', ''),
      row(3, 'b', '/b'),
      row(4, 'b', '/c'),
      row(5, '', ''),
    ]);
    expect(errors).toEqual(
      new Map([
        [1, 'Prefix is required'],
        [2, 'Path is required'],
        [4, 'this prefix is already used'],
      ]),
    );
  });
});
