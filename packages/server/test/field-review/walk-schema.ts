import type { z } from 'zod';

/**
 * Every field of a config schema as a path: `streams.*.urls[].program`. A record's entries are `*`,
 * an array's items `[]`; a record or array of plain values (extra options, port lists, country
 * lists) is one field, as the operator sets it as one value.
 */
export function schemaFields(schema: z.ZodType, path = ''): string[] {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      return schemaFields(def.innerType as z.ZodType, path);
    case 'pipe': {
      // A transform (urls given as plain strings) reads its input first: follow the richer side.
      const inner = schemaFields(def.in as z.ZodType, path);
      return inner.length > 1 || inner[0] !== path ? inner : schemaFields(def.out as z.ZodType, path);
    }
    case 'union': {
      const options = (def.options as z.ZodType[]).map((option) => schemaFields(option, path));
      const objects = options.filter((fields) => fields.length > 1 || fields[0] !== path);
      return objects.length === 0 ? [path] : [...new Set(objects.flat())];
    }
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      return Object.entries(shape).flatMap(([key, value]) =>
        schemaFields(value, path ? `${path}.${key}` : key),
      );
    }
    case 'record': {
      const inner = schemaFields(def.valueType as z.ZodType, `${path}.*`);
      return inner.length === 1 && inner[0] === `${path}.*` ? [path] : inner;
    }
    case 'array': {
      const inner = schemaFields(def.element as z.ZodType, `${path}[]`);
      return inner.length === 1 && inner[0] === `${path}[]` ? [path] : inner;
    }
    case 'tuple':
    default:
      return [path];
  }
}
