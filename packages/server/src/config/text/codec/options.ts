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
 * Writes `value` without the `skip` keys (those already written positionally) as key=value options
 * when every value is a scalar under an identifier key, else as a block. Returns the finished node.
 */
export function withOptions(
  base: { name: string; args: string[]; group: string; key?: string },
  value: Record<string, unknown>,
  spec: BlockSpec,
  skip: readonly string[] = [],
): CanonNode {
  const keys = Object.keys(value).filter(
    (k) => value[k] !== undefined && !Object.hasOwn(spec.omit, k) && !skip.includes(k),
  );
  const node: CanonNode = { name: base.name, args: base.args, group: base.group, key: base.key };
  if (keys.every((k) => isOptionKey(k) && isScalar(value[k]))) {
    for (const k of keys) {
      const v = value[k] as string | number | boolean;
      node.args.push(`${k}=${formatScalar(v, propertyHint(spec.schema, k), unitOf(spec, k))}`);
    }
    return node;
  }
  const rest = skip.length > 0 ? without(value, skip) : value;
  node.body = { spec, value: rest, children: encodeBlock(spec, rest) };
  return node;
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
