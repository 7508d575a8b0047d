import { describe, expect, it } from 'vitest';
import { readListParams, writeListParams } from './list-params.js';

describe('media list query parameters', () => {
  it('reads the known filters and the query from a link', () => {
    expect(readListParams(new URLSearchParams('filter=online&filter=dvr&filter=nope&query=cam'))).toEqual({
      filters: ['online', 'dvr'],
      query: 'cam',
    });
    expect(readListParams(new URLSearchParams(''))).toEqual({ filters: [], query: '' });
  });

  it('writes them back, keeping other parameters and dropping empty ones', () => {
    const next = writeListParams(new URLSearchParams('filter=error&x=1&query=old'), {
      filters: ['waiting', 'transcoder'],
      query: '',
    });
    expect(next.toString()).toBe('x=1&filter=waiting&filter=transcoder');
    expect(writeListParams(new URLSearchParams(), { filters: [], query: 'a b' }).toString()).toBe(
      'query=a+b',
    );
  });
});
