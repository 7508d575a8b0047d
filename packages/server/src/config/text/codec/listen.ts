import { encodeGeneric, unitOf, valueOfArgs } from './generic.js';
import { propertyHint } from '../schema-hints.js';
import type { Handler } from './spec.js';

/**
 * The listen directives that take a list of ports (`http`, `https`, `admin_http`, `admin_https`).
 * Operators write one port a line as often as all on one line: `http 80;` then `http 8080;` listens
 * on both (the ports add up) rather than failing as a key set twice. Written back on one line.
 */
export function listenHandler(directive: string): Handler {
  const path = [directive];
  return {
    directive,
    keys: [directive],
    decode(d, ctx) {
      const { spec } = ctx;
      const value = valueOfArgs(
        d.name,
        d.args,
        propertyHint(spec.schema, directive),
        unitOf(spec, directive),
      );
      ctx.append(path, Array.isArray(value) ? value : [value], d.pos);
      // The list every line of the directive feeds (filled by later lines too): each line's value
      // is the whole setting, so an unchanged setting keeps all its lines (TopPlan.pair).
      return { group: directive, value: ctx.valueAt(path) };
    },
    encode(key, value, spec) {
      // Written as a generic setting, under its plain name (a handler's name is reserved, quoted).
      return encodeGeneric(key, value, spec).map((node) => ({ ...node, name: directive, group: directive }));
    },
  };
}

/** The top-level keys listenHandler reads. */
export const LISTEN_LISTS = ['http', 'https', 'admin_http', 'admin_https'] as const;
