import { config as configSchema } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { NOT_SECRET, SECRET_FIELDS, SUSPECT_NAME } from './secret-fields.js';

interface Def {
  type: string;
  shape?: Record<string, { _zod: { def: Def } }>;
  innerType?: { _zod: { def: Def } };
  valueType?: { _zod: { def: Def } };
  element?: { _zod: { def: Def } };
  options?: { _zod: { def: Def } }[];
  in?: { _zod: { def: Def } };
}

/** Every leaf path of the config schema, in SECRET_FIELDS notation (`*` keys, `[]` items). */
function leafPaths(def: Def, path: string, out: Set<string>): void {
  const at = (suffix: string) => (path ? `${path}.${suffix}` : suffix);
  switch (def.type) {
    case 'object':
      for (const [key, child] of Object.entries(def.shape ?? {})) leafPaths(child._zod.def, at(key), out);
      return;
    case 'optional':
    case 'nullable':
    case 'default':
      return leafPaths(def.innerType!._zod.def, path, out);
    case 'record':
      return leafPaths(def.valueType!._zod.def, at('*'), out);
    case 'array':
      return leafPaths(def.element!._zod.def, `${path}[]`, out);
    case 'union':
      for (const option of def.options ?? []) leafPaths(option._zod.def, path, out);
      return;
    case 'pipe':
      return leafPaths(def.in!._zod.def, path, out);
    default:
      out.add(path);
  }
}

/** A path is covered when it, or a field above it (an omitted block, free options), is in the table. */
const covered = (path: string) => {
  if (path in SECRET_FIELDS) return true;
  const parts = path.split('.');
  return parts.some((_, i) => {
    const kind = SECRET_FIELDS[parts.slice(0, i + 1).join('.')];
    return kind === 'omit' || kind === 'options';
  });
};

describe('the secret field table', () => {
  it('names, or gives a reason for, every config field whose name looks secret or holds a url', () => {
    const paths = new Set<string>();
    leafPaths((configSchema as unknown as { _zod: { def: Def } })._zod.def, '', paths);
    expect(paths.size).toBeGreaterThan(100);
    const forgotten = [...paths].filter((path) => {
      const name = path.split('.').at(-1)!.replace(/\[\]$/, '');
      return SUSPECT_NAME.test(name) && !covered(path) && !(path in NOT_SECRET);
    });
    expect(forgotten).toEqual([]);
    const needless = Object.keys(NOT_SECRET).filter((path) => !paths.has(path) || covered(path));
    expect(needless).toEqual([]);
  });

  it('lists no path twice under two kinds, and only paths that exist', () => {
    const paths = new Set<string>();
    leafPaths((configSchema as unknown as { _zod: { def: Def } })._zod.def, '', paths);
    const runtime = (path: string) => path.includes('stats') || /^(lives|sources)\.\*\.streams\./.test(path);
    const loose = new Set(['lives.*.on_publish']);
    const unknown = Object.keys(SECRET_FIELDS).filter(
      (path) =>
        !runtime(path) &&
        !loose.has(path) &&
        ![...paths].some((p) => p === path || p.startsWith(`${path}.`) || p.startsWith(`${path}[]`)),
    );
    expect(unknown).toEqual([]);
  });
});
