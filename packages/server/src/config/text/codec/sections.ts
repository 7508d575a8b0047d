import { syntaxError } from '../errors.js';
import { formatString } from '../scalars.js';
import type { Arg, Pos, Word } from '../tree.js';
import { decodeBlock, put } from './block.js';
import { bodyNode, encodeItems } from './items.js';
import { without } from './options.js';
import type { BlockSpec, Handler, SectionItems } from './spec.js';

/** The key of a section item: the first argument, a plain word. */
export function nameArg(args: readonly Arg[], what: string, directive: string, end: Pos): Word {
  const name = args[0];
  if (!name || name.kind !== 'word' || name.option)
    throw syntaxError(name?.pos ?? end, `expected ${what} after '${directive}'`);
  return name;
}

export function merged(
  item: Record<string, unknown>,
  block: Record<string, unknown>,
  directive: string,
  pos: { line: number; column: number },
) {
  for (const [k, v] of Object.entries(block)) {
    if (Object.hasOwn(item, k))
      throw syntaxError(pos, `'${k}' of '${directive}' is given both on its line and in its block`);
    put(item, k, v);
  }
  return item;
}

/** `stream NAME { … }`, `live PREFIX { … }`, `file PREFIX { … }`, `dvr NAME { … }`, `auth_backend NAME { … }`. */
export function namedSection(
  directive: string,
  key: string,
  keyField: string,
  what: string,
  body: () => BlockSpec,
): Handler {
  const section: SectionItems = {
    keyField,
    positioned: true,
    keyed: true,
    encodeItem: (name, item) => bodyNode(directive, [formatString(name)], name, body(), item),
  };
  return {
    directive,
    keys: [key],
    section,
    decode(d, ctx) {
      const name = nameArg(d.args, what, directive, d.end);
      const extra = d.args[1];
      if (extra)
        throw syntaxError(
          extra.pos,
          `unexpected argument after the ${what.replace(/^an? /, '')} of '${directive}': settings go inside its block`,
        );
      const item: Record<string, unknown> = {};
      put(item, keyField, name.text);
      put(item, 'position', ctx.count(directive));
      // The block cannot set the key field or the position (its spec omits them): read it straight
      // into the item.
      if (d.children) decodeBlock(body(), d.children, item);
      ctx.set([key, name.text], item, d.pos);
      return { group: directive, key: name.text, value: item };
    },
    encode: (_key, value) => encodeItems(section, value),
  };
}

/** `source URL… { … }`: a mirror, keyed by its position; it has no name, so the merge matches it by content. */
export function sourceSection(body: () => BlockSpec): Handler {
  const section: SectionItems = {
    positioned: true,
    keyed: false,
    encodeItem(_key, item) {
      const urls = item.urls;
      const inHeader = Array.isArray(urls) && urls.length > 0 && urls.every((u) => typeof u === 'string');
      const args = inHeader ? (urls as string[]).map((u) => formatString(u)) : [];
      return bodyNode('source', args, undefined, body(), inHeader ? without(item, ['urls']) : item);
    },
  };
  return {
    directive: 'source',
    keys: ['sources'],
    section,
    decode(d, ctx) {
      const urls = d.args.map((a) => {
        if (a.kind !== 'word' || a.option)
          throw syntaxError(a.pos, "settings of 'source' go inside its block, after the URLs");
        return a.text;
      });
      const position = ctx.count('source');
      const item: Record<string, unknown> = { position };
      if (urls.length > 0) item.urls = urls;
      if (d.children) merged(item, decodeBlock(body(), d.children).value, 'source', d.pos);
      ctx.set(['sources', String(position)], item, d.pos);
      return { group: 'source', value: item };
    },
    encode: (_key, value) => encodeItems(section, value),
  };
}

/** `plugin NAME { … }` → plugins[NAME]. */
export function pluginSection(body: (name: string) => BlockSpec): Handler {
  const section: SectionItems = {
    positioned: false,
    keyed: true,
    encodeItem: (name, item) => bodyNode('plugin', [formatString(name)], name, body(name), item),
  };
  return {
    directive: 'plugin',
    keys: ['plugins'],
    section,
    decode(d, ctx) {
      const name = nameArg(d.args, 'a plugin name', 'plugin', d.end);
      const extra = d.args[1];
      if (extra) throw syntaxError(extra.pos, "settings of 'plugin' go inside its block");
      const item = d.children ? decodeBlock(body(name.text), d.children).value : {};
      ctx.set(['plugins', name.text], item, d.pos);
      return { group: 'plugin', key: name.text, value: item };
    },
    encode: (_key, value) => encodeItems(section, value),
  };
}
