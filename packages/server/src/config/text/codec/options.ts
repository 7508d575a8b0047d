import { isPlainObject } from '@sluice/api';
import { syntaxError } from '../errors.js';
import { formatScalar, isOptionKey, isScalar, scalarFromText } from '../scalars.js';
import { propertyHint } from '../schema-hints.js';
import type { Arg, Directive } from '../tree.js';
import { decodeBlock, encodeBlock, put } from './block.js';
import { unitOf } from './generic.js';
import type { BlockSpec, CanonNode } from './spec.js';

/**
 * Shared by directives of the form `NAME POSITIONAL… key=value… [{ … }]`: the options and the
 * optional block both add keys to one object, typed by that object's spec.
 */
export function readOptions(
  d: Directive,
  args: readonly Arg[],
  spec: BlockSpec,
  into: Record<string, unknown>,
  from = 0,
): void {
  for (let i = from; i < args.length; i++) {
    const arg = args[i] as Arg;
    if (arg.kind !== 'word' || !arg.option) {
      const text = arg.kind === 'word' ? arg.text : '[…]';
      throw syntaxError(
        arg.pos,
        `unexpected argument '${text}' for '${d.name}': options are written key=value`,
      );
    }
    const { key, value, valueBare } = arg.option;
    if (Object.hasOwn(into, key)) throw syntaxError(arg.pos, `option '${key}' of '${d.name}' is given twice`);
    if (Object.hasOwn(spec.omit, key))
      throw syntaxError(arg.pos, `'${key}' cannot be set here: ${spec.omit[key]}`);
    put(into, key, scalarFromText(value, valueBare, propertyHint(spec.schema, key), unitOf(spec, key)));
  }
  if (!d.children) return;
  const block = decodeBlock(spec, d.children).value;
  for (const [key, value] of Object.entries(block)) {
    if (Object.hasOwn(into, key))
      throw syntaxError(d.pos, `'${key}' of '${d.name}' is given both on its line and in its block`);
    put(into, key, value);
  }
}

/** The object without the given keys (those written positionally). */
export function without(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!keys.includes(k)) put(out, k, v);
  return out;
}

/**
 * Writes `rest` as key=value options when every value is a scalar under an identifier key, else as
 * a block. Returns the finished node.
 */
export function withOptions(
  base: { name: string; args: string[]; group: string; key?: string },
  rest: Record<string, unknown>,
  spec: BlockSpec,
): CanonNode {
  const keys = Object.keys(rest).filter((k) => rest[k] !== undefined && !Object.hasOwn(spec.omit, k));
  const optionable = keys.every((k) => isOptionKey(k) && isScalar(rest[k]) && !isPlainObject(rest[k]));
  if (optionable) {
    const options = keys.map(
      (k) =>
        `${k}=${formatScalar(rest[k] as string | number | boolean, propertyHint(spec.schema, k), unitOf(spec, k))}`,
    );
    return { ...base, args: [...base.args, ...options] };
  }
  return { ...base, body: { spec, value: rest, children: encodeBlock(spec, rest) } };
}

/** `NAME { …every key… }`: the form for values that options cannot carry. */
export function blockNode(
  name: string,
  group: string,
  value: Record<string, unknown>,
  spec: BlockSpec,
): CanonNode {
  return { name, args: [], group, body: { spec, value, children: encodeBlock(spec, value) } };
}
