import { describe, expect, it } from 'vitest';
import {
  defaultModeChange,
  ignoreChange,
  mirrorMode,
  restartOnDemandChange,
  restartStaticChange,
} from './mirror-modes.js';

describe('mirror modes (spec 000 §4)', () => {
  it('is static without an only list and on demand with one, even an empty one', () => {
    expect(mirrorMode({})).toBe('static');
    expect(mirrorMode({ except: ['a'] })).toBe('static');
    expect(mirrorMode({ only: [] })).toBe('ondemand');
    expect(mirrorMode({ only: ['a'] })).toBe('ondemand');
  });

  it('switches the default mode by removing only, or by starting an empty only', () => {
    expect(defaultModeChange('static')).toEqual({ only: null });
    expect(defaultModeChange('ondemand')).toEqual({ only: [] });
  });

  it('ignores a stream by adding it to except, and takes it out of only', () => {
    expect(ignoreChange({}, 'a')).toEqual({ except: ['a'] });
    expect(ignoreChange({ except: ['b', 'a'] }, 'a')).toEqual({ except: ['b', 'a'] });
    expect(ignoreChange({ only: ['a', 'c'], except: ['b'] }, 'a')).toEqual({
      except: ['b', 'a'],
      only: ['c'],
    });
    // The last static name leaves an empty only: the mirror stays on demand.
    expect(ignoreChange({ only: ['a'] }, 'a')).toEqual({ except: ['a'], only: [] });
  });

  it('restarts an ignored stream as static: from except to only', () => {
    expect(restartStaticChange({ only: ['c'], except: ['a', 'b'] }, 'a')).toEqual({
      except: ['b'],
      only: ['c', 'a'],
    });
    expect(restartStaticChange({ only: [], except: ['a'] }, 'a')).toEqual({ except: null, only: ['a'] });
    // A static mirror pulls it statically once it leaves except; no only list appears.
    expect(restartStaticChange({ except: ['a'] }, 'a')).toEqual({ except: null });
  });

  it('restarts an ignored stream on demand: it only leaves except', () => {
    expect(restartOnDemandChange({ only: ['c'], except: ['a', 'b'] }, 'a', [])).toEqual({ except: ['b'] });
    expect(restartOnDemandChange({ only: ['a', 'c'], except: ['a'] }, 'a', [])).toEqual({
      except: null,
      only: ['c'],
    });
  });

  it('in a static mirror, keeps the other streams static while one restarts on demand', () => {
    expect(restartOnDemandChange({ except: ['a', 'b'] }, 'a', ['c', 'd', 'b'])).toEqual({
      except: ['b'],
      only: ['c', 'd'],
    });
    expect(mirrorMode({ only: ['c', 'd'] })).toBe('ondemand');
  });
});
