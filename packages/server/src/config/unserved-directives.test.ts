import { describe, expect, it } from 'vitest';
import { unservedDirectiveNotes } from './unserved-directives.js';

describe('unservedDirectiveNotes', () => {
  it('says a mysql port is not applied, once: at load and when it changes', () => {
    expect(unservedDirectiveNotes({ mysql: 3306 })).toEqual([
      'mysql 3306: not applied, this server has no MySQL-protocol API (the port stays closed)',
    ]);
    expect(unservedDirectiveNotes({ mysql: 3306 }, { mysql: 3306 })).toEqual([]);
    expect(unservedDirectiveNotes({})).toEqual([]);
  });
});
