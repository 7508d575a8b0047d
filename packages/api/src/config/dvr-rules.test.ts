import { describe, expect, it } from 'vitest';
import {
  DVR_NAME_REQUIRED,
  DVR_NAME_USED,
  DVR_ROOT_REQUIRED,
  DVR_ROOT_USED_AS_GLOBAL,
  DVR_ROOT_USED_AS_STREAM_ROOT,
  dvrNameProblem,
  dvrRootClash,
  dvrRootProblem,
  itemDvrRoots,
} from './dvr-rules.js';

describe('DVR storage rules (spec 002 §5)', () => {
  it('a name is required and unique among the other DVRs', () => {
    expect(dvrNameProblem('', ['a'])).toBe(DVR_NAME_REQUIRED);
    expect(dvrNameProblem('a', ['a', 'b'])).toBe(DVR_NAME_USED);
    expect(dvrNameProblem('c', ['a', 'b'])).toBeUndefined();
  });

  it('a root is required, not another DVR root, not an item root ignoring a leading slash', () => {
    const items = itemDvrRoots({
      streams: { cam: { dvr: { root: '/storage/cam' } }, ref: { dvr: { reference: 'main' } } },
      lives: { pub: { dvr: { root: 'live' } } },
      sources: { '0': { dvr: { root: '/mirror' } } },
    });
    expect([...items].sort()).toEqual(['live', 'mirror', 'storage/cam']);
    expect(dvrRootProblem('', [], items)).toBe(DVR_ROOT_REQUIRED);
    expect(dvrRootProblem('/a', ['/a'], items)).toBe(DVR_ROOT_USED_AS_GLOBAL);
    expect(dvrRootProblem('storage/cam', [], items)).toBe(DVR_ROOT_USED_AS_STREAM_ROOT);
    expect(dvrRootProblem('/live', [], items)).toBe(DVR_ROOT_USED_AS_STREAM_ROOT);
    expect(dvrRootProblem('/a', ['a'], items)).toBeUndefined();
  });

  it('names the DVR whose root clashes', () => {
    expect(dvrRootClash({ a: { root: '/x' }, b: { root: '/y' } }, new Set())).toBeUndefined();
    expect(dvrRootClash({ a: { root: '/x' }, b: { root: '/x' } }, new Set())).toEqual({
      name: 'a',
      message: DVR_ROOT_USED_AS_GLOBAL,
    });
    expect(dvrRootClash({ a: { root: '/x' } }, new Set(['x']))?.message).toBe(DVR_ROOT_USED_AS_STREAM_ROOT);
  });
});
