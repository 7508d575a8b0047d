import { resolve, sep } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scriptFilePath } from './web-script-path.js';

const ROOT = resolve('/srv/site');

describe('scriptFilePath', () => {
  it('maps paths inside the folder and refuses the ways out', () => {
    expect(scriptFilePath(ROOT, '')).toEqual({ file: `${ROOT}/index.html` });
    expect(scriptFilePath(ROOT, 'js/app%20one.js')).toEqual({ file: `${ROOT}/js/app one.js` });
    for (const bad of [
      '../etc/passwd',
      '%2e%2e/x',
      '..%2fx',
      'a/%2E%2E/%2E%2E/x',
      'a%5c..%5cx',
      'a//b',
      './a',
      'a%00b',
      '%zz',
      '%',
    ])
      expect(scriptFilePath(ROOT, bad)).toEqual({ refused: 'bad path' });
  });

  it('never names a file outside the folder, whatever the path (10^4 paths)', () => {
    const part = fc.oneof(
      fc.constantFrom(
        '..',
        '.',
        '',
        '%2e%2e',
        '%2E.',
        '%2f',
        '%5c',
        '%00',
        '%',
        '%zz',
        '..%2f..',
        'a',
        'index.html',
      ),
      fc.string({ maxLength: 8 }),
      fc.string({ unit: 'binary', maxLength: 6 }).map((s) => encodeURIComponent(s)),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), (parts) => {
        const found = scriptFilePath(ROOT, parts.join('/'));
        return !('file' in found) || found.file.startsWith(ROOT + sep);
      }),
      { numRuns: 10_000 },
    );
  });
});
