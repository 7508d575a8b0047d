import { describe, expect, it } from 'vitest';
import {
  KEY_ERROR,
  VALUE_ERROR,
  keyError,
  recordToRows,
  rowErrors,
  rowsToRecord,
  valueError,
} from './key-value.js';

describe('key/value rules (spec 001 §5)', () => {
  it('refuses a key with a leading digit with the message, rather than dropping it (issue 17)', () => {
    expect(keyError('1abc')).toBe(KEY_ERROR);
    expect(keyError('a1')).toBeUndefined();
  });

  it('wants a key that starts with a letter, then letters, digits and underscores', () => {
    expect(keyError('comment_2')).toBeUndefined();
    expect(keyError('_x')).toBe(KEY_ERROR);
    expect(keyError('a-b')).toBe(KEY_ERROR);
  });

  it('refuses a # in a value', () => {
    expect(valueError('a#b')).toBe(VALUE_ERROR);
    expect(valueError('plain')).toBeUndefined();
  });

  it('flags rows, skipping empty ones, and needs a key when a value is set', () => {
    const errors = rowErrors([
      { id: 1, key: '', value: '' },
      { id: 2, key: '', value: 'x' },
      { id: 3, key: 'a', value: '#' },
      { id: 4, key: 'a', value: 'y' },
    ]);
    expect([...errors.keys()]).toEqual([2, 3, 4]);
  });

  it('converts rows to a record and back; no rows is null', () => {
    let id = 0;
    const rows = recordToRows({ a: '1', b: 2 }, () => ++id);
    expect(rows).toEqual([
      { id: 1, key: 'a', value: '1' },
      { id: 2, key: 'b', value: '2' },
    ]);
    expect(rowsToRecord(rows)).toEqual({ a: '1', b: '2' });
    expect(rowsToRecord([{ id: 1, key: '', value: '' }])).toBeNull();
  });
});
