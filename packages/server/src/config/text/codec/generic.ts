import { isPlainObject } from '@sluice/api';
import { syntaxError } from '../errors.js';
import { formatName, formatScalar, isScalar, quoteSingle, scalarFromText } from '../scalars.js';
import { allows, type Hint, isArrayOnly, itemHint, propertyHint } from '../schema-hints.js';
import type { Arg, Directive } from '../tree.js';
import type { Unit } from '../units.js';
import { decodeBlock, encodeBlock } from './block.js';
import type { Ann, BlockSpec, CanonNode, DecodeCtx } from './spec.js';

/** Section directives: met inside a block they most likely mean a `}` is missing above. */
export const TOP_LEVEL_ONLY: ReadonlySet<string> = new Set([
  'stream',
  'live',
  'source',
  'file',
  'auth_backend',
  'plugin',
  'peer',
  'web_script',
  'edit_auth',
  'view_auth',
]);

/**
 * The merge group of a generic key. Kept apart from the groups of special directives, so that a
 * key written `"stream" …;` is never matched against the `stream NAME { … }` sections.
 */
export function genericGroup(key: string): string {
  return `generic:${key}`;
}

export function unitOf(spec: BlockSpec, key: string): Unit | undefined {
  return Object.hasOwn(spec.units, key) ? spec.units[key] : undefined;
}

/** `key value;`, `key a b;`, `key [a b];`, `key;` (true), `key { … }` or `key json '…';`. */
export function decodeGeneric(d: Directive, ctx: DecodeCtx): Ann {
  const { spec } = ctx;
  const key = d.name;
  if (Object.hasOwn(spec.omit, key))
    throw syntaxError(d.pos, `'${key}' cannot be set here: ${spec.omit[key]}`);
  // Reserved names that reach here are sections met inside a block (handlers took the others).
  if (d.nameBare && spec.reserved.has(key)) {
    throw syntaxError(d.pos, `'${key}' is only allowed at the top level: is a '}' missing before it?`);
  }
  const value = genericValue(d, spec, key);
  ctx.set([key], value, d.pos);
  return { group: genericGroup(key), value };
}

export function genericValue(d: Directive, spec: BlockSpec, key: string): unknown {
  if (d.children) {
    const first = d.args[0];
    if (first) throw syntaxError(first.pos, `'${d.name}' takes either values or a block, not both`);
    return decodeBlock(spec.nested(key), d.children).value;
  }
  const hint = propertyHint(spec.schema, key);
  return shorthandValue(d.args, hint) ?? valueOfArgs(d.name, d.args, hint, unitOf(spec, key));
}

/**
 * The short forms operators write for a block (docs/config.md): a bare flag means the block is
 * enabled (`thumbnails;` is `thumbnails { enabled; }`), and one URL stands for its url
 * (`auth URL;` is `auth { url URL; }`). Only where the schema types the key as an object with that
 * field, so that any other key keeps its plain meaning (`static;` is still true).
 */
function shorthandValue(args: readonly Arg[], hint: Hint): Record<string, unknown> | undefined {
  if (!hint || allows(hint, 'boolean') || allows(hint, 'string') || !allows(hint, 'object')) return undefined;
  const [first] = args;
  if (!first) return propertyHint(hint, 'enabled') ? { enabled: true } : undefined;
  if (args.length !== 1 || first.kind !== 'word' || first.option) return undefined;
  return allows(propertyHint(hint, 'url'), 'string') && propertyHint(hint, 'url')
    ? { url: first.text }
    : undefined;
}

export function valueOfArgs(name: string, args: readonly Arg[], hint: Hint, unit: Unit | undefined): unknown {
  const [first, second] = args;
  if (!first) return true;
  if (
    args.length === 2 &&
    first.kind === 'word' &&
    first.bare &&
    first.text === 'json' &&
    second?.kind === 'word' &&
    !second.bare
  ) {
    try {
      return JSON.parse(second.text) as unknown;
    } catch (error) {
      throw syntaxError(second.pos, `invalid JSON for '${name}': ${(error as Error).message}`);
    }
  }
  if (args.length > 1) {
    for (const a of args)
      if (a.kind === 'list') throw syntaxError(a.pos, `a [list] must be the only value of '${name}'`);
  }
  if (first.kind === 'list') {
    const items = itemHint(hint);
    return first.items.map((w) => scalarFromText(w.text, w.bare, items));
  }
  if (args.length === 1 && !isArrayOnly(hint)) return scalarFromText(first.text, first.bare, hint, unit);
  const items = itemHint(hint);
  return args.map((w) => (w.kind === 'word' ? scalarFromText(w.text, w.bare, items) : undefined));
}

/** The generic form of any value; keys this version does not know always take this path. */
export function encodeGeneric(key: string, value: unknown, spec: BlockSpec): CanonNode[] {
  const name = formatName(key, spec.reserved);
  const hint = propertyHint(spec.schema, key);
  const group = genericGroup(key);
  const node = (args: string[]): CanonNode[] => [{ name, args, group }];
  if (value === true) return node([]);
  if (isScalar(value)) return node([formatScalar(value, hint, unitOf(spec, key))]);
  if (isPlainObject(value)) {
    const nested = spec.nested(key);
    return [{ name, args: [], group, body: { spec: nested, value, children: encodeBlock(nested, value) } }];
  }
  if (Array.isArray(value) && value.every(isScalar)) {
    const texts = value.map((v) => formatScalar(v, itemHint(hint)));
    // Without the schema saying "array", one plain value would read back as a scalar: use brackets.
    return node(texts.length > 0 && isArrayOnly(hint) ? texts : [`[${texts.join(' ')}]`]);
  }
  // Arrays of objects, nested arrays, null: JSON keeps them exact.
  return node(['json', quoteSingle(JSON.stringify(value))]);
}
