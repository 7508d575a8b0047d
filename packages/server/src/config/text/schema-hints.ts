import { config } from '@sluice/api';
import { z } from 'zod';

/**
 * Type hints for the text format, read from the api's zod schema through its JSON Schema form, so
 * that a field added to the schema is typed right in the text without a second list to maintain:
 * `password 1234;` gives the string "1234" because the schema types password as a string.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

export type Hint = JsonSchema | undefined;
type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object';

let root: JsonSchema | undefined;

export function configJsonSchema(): JsonSchema {
  // io: 'input' describes what the schema accepts (urls may be plain strings before the transform).
  root ??= z.toJSONSchema(config, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return root;
}

// The schema is fixed for the life of the process: walks over it are computed once per node.
const branchCache = new WeakMap<JsonSchema, JsonSchema[]>();
const propertyCache = new WeakMap<JsonSchema, Map<string, Hint>>();
const keysCache = new WeakMap<JsonSchema, string[]>();

function branches(s: Hint): JsonSchema[] {
  if (!s) return [];
  let found = branchCache.get(s);
  if (!found) {
    const alternatives = s.anyOf ?? s.oneOf;
    found = alternatives ? alternatives.flatMap(branches) : [s];
    branchCache.set(s, found);
  }
  return found;
}

const typesCache = new WeakMap<JsonSchema, string[]>();

function types(s: JsonSchema): string[] | undefined {
  if (s.type === undefined) return undefined;
  let found = typesCache.get(s);
  if (!found) {
    found = (Array.isArray(s.type) ? s.type : [s.type]).map((t) => (t === 'integer' ? 'number' : t));
    typesCache.set(s, found);
  }
  return found;
}

/** Memoizes a function of a schema node; `undefined` (no schema) is not cached. */
function perNode<T>(compute: (s: JsonSchema) => T): (s: Hint) => T | undefined {
  const cache = new WeakMap<JsonSchema, { value: T }>();
  return (s) => {
    if (!s) return undefined;
    let hit = cache.get(s);
    if (!hit) cache.set(s, (hit = { value: compute(s) }));
    return hit.value;
  };
}

function combine(found: JsonSchema[]): Hint {
  return found.length === 0 ? undefined : found.length === 1 ? found[0] : { anyOf: found };
}

/** The schema of `key` inside an object schema (declared property, else the record's value schema). */
export function propertyHint(s: Hint, key: string): Hint {
  if (!s) return undefined;
  let byKey = propertyCache.get(s);
  if (!byKey) propertyCache.set(s, (byKey = new Map()));
  if (!byKey.has(key)) byKey.set(key, findProperty(s, key));
  return byKey.get(key);
}

function findProperty(s: JsonSchema, key: string): Hint {
  const found: JsonSchema[] = [];
  for (const b of branches(s)) {
    if (!types(b)?.includes('object')) continue;
    const declared = b.properties && Object.hasOwn(b.properties, key) ? b.properties[key] : undefined;
    const extra = typeof b.additionalProperties === 'object' ? b.additionalProperties : undefined;
    const hint = declared ?? extra;
    if (hint && (hint.type !== undefined || hint.anyOf || hint.oneOf)) found.push(hint);
  }
  return combine(found);
}

/** The schema of an array's items (the same object each time, so that hints below it are cached too). */
export const itemHint: (s: Hint) => Hint = perNode((s) => {
  const found: JsonSchema[] = [];
  for (const b of branches(s)) {
    if (types(b)?.includes('array') && b.items && !Array.isArray(b.items)) found.push(b.items);
  }
  return combine(found);
});

/** Declared property names, in the schema's order (the canonical order of directives). */
export function declaredKeys(s: Hint): string[] {
  if (!s) return [];
  let keys = keysCache.get(s);
  if (!keys) {
    keys = [...new Set(branches(s).flatMap((b) => Object.keys(b.properties ?? {})))];
    keysCache.set(s, keys);
  }
  return keys;
}

const KINDS: readonly Kind[] = ['string', 'number', 'boolean', 'array', 'object'];

/** The kinds a schema node allows, one bit each in the order of KINDS. */
const allowedKinds = perNode((s) => {
  let bits = 0;
  KINDS.forEach((kind, i) => {
    const ok = branches(s).some((b) => {
      const t = types(b);
      return t === undefined || t.includes(kind);
    });
    if (ok) bits |= 1 << i;
  });
  return bits;
});

/** Whether a value of this kind may stand here. An unknown place (no hint) allows anything. */
export function allows(s: Hint, kind: Kind): boolean {
  if (!s) return true;
  return ((allowedKinds(s) as number) & (1 << KINDS.indexOf(kind))) !== 0;
}

const arrayOnly = perNode((s) => {
  const bs = branches(s);
  return (
    bs.length > 0 &&
    bs.every((b) => {
      const t = types(b);
      return t !== undefined && t.length === 1 && t[0] === 'array';
    })
  );
});

/** A place the schema types as an array and nothing else: `domains a b;` and `http 80;` are lists there. */
export function isArrayOnly(s: Hint): boolean {
  return arrayOnly(s) ?? false;
}

/** The value schema of a record (`streams` → one stream). */
export const recordValueHint: (s: Hint) => Hint = perNode((s) => {
  const found: JsonSchema[] = [];
  for (const b of branches(s))
    if (typeof b.additionalProperties === 'object') found.push(b.additionalProperties);
  return combine(found);
});
