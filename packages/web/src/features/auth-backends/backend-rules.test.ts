import { describe, expect, it } from 'vitest';
import {
  addRule,
  chipGroups,
  cleanValue,
  newBackendName,
  nextPosition,
  orderedNames,
  removeRule,
  renamedTo,
  replaceRule,
} from './backend-rules.js';

describe('auth backend values', () => {
  it('adds to the list of the mode and variant, and backend urls to backends', () => {
    let b = addRule({ name: 'paid' }, { mode: 'allow', variant: 'token', value: 'gold' });
    b = addRule(b, { mode: 'deny', variant: 'ip', value: '10.0.0.0/8' });
    b = addRule(b, { mode: 'backend', variant: 'ip', value: 'http://a.example/auth' });
    expect(b).toEqual({
      name: 'paid',
      allow: { tokens: ['gold'] },
      deny: { ips: ['10.0.0.0/8'] },
      backends: [{ url: 'http://a.example/auth' }],
    });
  });

  it('refuses a duplicate in the same list silently, but takes it in another list', () => {
    const b = addRule({}, { mode: 'allow', variant: 'token', value: 'gold' });
    expect(addRule(b, { mode: 'allow', variant: 'token', value: 'gold' })).toBe(b);
    expect(addRule(b, { mode: 'deny', variant: 'token', value: 'gold' }).deny).toEqual({ tokens: ['gold'] });
    expect(addRule(b, { mode: 'allow', variant: 'token', value: '' })).toBe(b);
  });

  it('removes a value and drops lists left empty', () => {
    const b = addRule({ name: 'x' }, { mode: 'allow', variant: 'ua', value: 'curl' });
    expect(removeRule(b, { mode: 'allow', variant: 'ua', value: 'curl' })).toEqual({ name: 'x' });
  });

  it('an edit replaces in place, moves between lists, and refuses to make a duplicate', () => {
    let b = addRule({}, { mode: 'allow', variant: 'token', value: 'a' });
    b = addRule(b, { mode: 'allow', variant: 'token', value: 'b' });
    expect(
      replaceRule(
        b,
        { mode: 'allow', variant: 'token', value: 'a' },
        { mode: 'allow', variant: 'token', value: 'c' },
      ).allow,
    ).toEqual({
      tokens: ['c', 'b'],
    });
    expect(
      replaceRule(
        b,
        { mode: 'allow', variant: 'token', value: 'a' },
        { mode: 'allow', variant: 'token', value: 'b' },
      ),
    ).toBe(b);
    const moved = replaceRule(
      b,
      { mode: 'allow', variant: 'token', value: 'a' },
      { mode: 'deny', variant: 'country', value: 'RU' },
    );
    expect(moved.allow).toEqual({ tokens: ['b'] });
    expect(moved.deny).toEqual({ countries: ['RU'] });
  });

  it('keeps typed values trimmed, countries upper case', () => {
    expect(cleanValue('country', 'deny', ' ru ')).toBe('RU');
    expect(cleanValue('token', 'allow', ' Ab ')).toBe('Ab');
    expect(cleanValue('country', 'backend', ' http://x ')).toBe('http://x');
  });
});

describe('chips', () => {
  it('groups Token, IP, Country, UA, Backend; allowed green, denied red', () => {
    const groups = chipGroups({
      allow: { ips: ['1.2.3.4'], tokens: ['t1'] },
      deny: { tokens: ['t2'], uas: ['bot'] },
      backends: [{ url: 'http://b/auth' }],
    });
    expect(groups.map((g) => g.group)).toEqual(['Token', 'IP', 'UA', 'Backend']);
    expect(groups[0]?.chips.map((c) => [c.value, c.color])).toEqual([
      ['t1', 'green'],
      ['t2', 'red'],
    ]);
    expect(groups[2]?.chips[0]?.color).toBe('red');
    expect(groups[3]?.chips[0]?.mode).toBe('backend');
  });
});

describe('backend names', () => {
  it('renames to the trimmed name, refusing empty, unchanged and taken names', () => {
    expect(renamedTo('a', '  b  ', ['a', 'c'])).toBe('b');
    expect(renamedTo('a', '   ', ['a'])).toBeUndefined();
    expect(renamedTo('a', ' a ', ['a'])).toBeUndefined();
    expect(renamedTo('a', 'c', ['a', 'c'])).toBeUndefined();
  });

  it('names and places a new backend after the others', () => {
    expect(newBackendName(['auth1', 'auth3'])).toBe('auth2');
    expect(nextPosition({ a: { position: 4 }, b: { position: 1 } })).toBe(5);
    expect(nextPosition({})).toBe(0);
    expect(orderedNames({ z: { position: 0 }, a: { position: 2 }, m: { position: 1 } })).toEqual([
      'z',
      'm',
      'a',
    ]);
  });
});
