import { isPlainObject } from '@sluice/api';
import { syntaxError } from '../errors.js';
import {
  formatScalar,
  formatString,
  isOptionKey,
  isSafeBare,
  isScalar,
  quote,
  scalarFromText,
} from '../scalars.js';
import { propertyHint } from '../schema-hints.js';
import type { Arg } from '../tree.js';
import { decodeBlock, encodeBlock, put } from './block.js';
import { allPlainObjects, byPosition } from './dvr-storage.js';
import { readOptions, withOptions, without } from './options.js';
import type { BlockSpec, CanonNode, Handler } from './spec.js';

function nameArg(
  args: readonly Arg[],
  what: string,
  directive: string,
  end: { line: number; column: number },
) {
  const [name, ...extra] = args;
  if (!name || name.kind !== 'word' || name.option)
    throw syntaxError(name?.pos ?? end, `expected ${what} after '${directive}'`);
  return { name, extra };
}

function merged(
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

function bodyNode(base: Omit<CanonNode, 'body'>, spec: BlockSpec, value: Record<string, unknown>): CanonNode {
  return { ...base, body: { spec, value, children: encodeBlock(spec, value) } };
}

/** `stream NAME { … }`, `live PREFIX { … }`, `file PREFIX { … }`, `dvr NAME { … }`, `auth_backend NAME { … }`. */
export function namedSection(
  directive: string,
  key: string,
  keyField: string,
  what: string,
  body: () => BlockSpec,
): Handler {
  return {
    directive,
    keys: [key],
    decode(d, ctx) {
      const { name, extra } = nameArg(d.args, what, directive, d.end);
      if (extra[0])
        throw syntaxError(
          extra[0].pos,
          `unexpected argument after the ${what.replace(/^an? /, '')} of '${directive}': settings go inside its block`,
        );
      const item: Record<string, unknown> = {};
      put(item, keyField, name.text);
      put(item, 'position', ctx.count(directive));
      if (d.children) merged(item, decodeBlock(body(), d.children).value, directive, d.pos);
      ctx.set([key, name.text], item, d.pos);
      return { group: directive, key: name.text };
    },
    encode(_key, value) {
      if (!allPlainObjects(value)) return undefined;
      return byPosition(value).map(([name, item]) =>
        bodyNode({ name: directive, args: [formatString(name)], group: directive, key: name }, body(), item),
      );
    },
  };
}

/** `source URL… { … }`: a mirror, keyed by its position; it has no name, so the merge matches it by content. */
export function sourceSection(body: () => BlockSpec): Handler {
  return {
    directive: 'source',
    keys: ['sources'],
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
      return { group: 'source' };
    },
    encode(_key, value) {
      if (!allPlainObjects(value)) return undefined;
      return byPosition(value).map(([, item]) => {
        const urls = item.urls;
        const inHeader = Array.isArray(urls) && urls.length > 0 && urls.every((u) => typeof u === 'string');
        const args = inHeader ? (urls as string[]).map((u) => formatString(u)) : [];
        return bodyNode(
          { name: 'source', args, group: 'source' },
          body(),
          inHeader ? without(item, ['urls']) : item,
        );
      });
    },
  };
}

/** `plugin NAME { … }` → plugins[NAME]. */
export function pluginSection(body: (name: string) => BlockSpec): Handler {
  return {
    directive: 'plugin',
    keys: ['plugins'],
    decode(d, ctx) {
      const { name, extra } = nameArg(d.args, 'a plugin name', 'plugin', d.end);
      if (extra[0]) throw syntaxError(extra[0].pos, "settings of 'plugin' go inside its block");
      ctx.set(
        ['plugins', name.text],
        d.children ? decodeBlock(body(name.text), d.children).value : {},
        d.pos,
      );
      return { group: 'plugin', key: name.text };
    },
    encode(_key, value) {
      if (!allPlainObjects(value)) return undefined;
      return Object.entries(value).map(([name, item]) =>
        bodyNode(
          { name: 'plugin', args: [formatString(name)], group: 'plugin', key: name },
          body(name),
          item,
        ),
      );
    },
  };
}

const HOST_PORT = /^(.+):(\d+)$/;

/** `peer HOST[:PORT] k=v…;` → peers[HOST] = {name, port, position}. A quoted host is never split. */
export function peerSection(body: () => BlockSpec): Handler {
  return {
    directive: 'peer',
    keys: ['peers'],
    decode(d, ctx) {
      const { name, extra } = nameArg(d.args, 'HOST or HOST:PORT', 'peer', d.end);
      const split = name.bare ? HOST_PORT.exec(name.text) : null;
      const host = split ? (split[1] as string) : name.text;
      const item: Record<string, unknown> = {};
      put(item, 'name', host);
      put(item, 'position', ctx.count('peer'));
      if (split) put(item, 'port', Number(split[2]));
      readOptions(d, extra, body(), item);
      ctx.set(['peers', host], item, d.pos);
      return { group: 'peer', key: host };
    },
    encode(_key, value) {
      if (!allPlainObjects(value)) return undefined;
      return byPosition(value).map(([host, item]) => {
        const port = item.port;
        const withPort =
          typeof port === 'number' && Number.isSafeInteger(port) && port >= 0 && formatString(host) === host;
        const head = withPort
          ? `${host}:${port}`
          : isSafeBare(host) && !HOST_PORT.test(host)
            ? formatString(host)
            : quote(host);
        return withOptions(
          { name: 'peer', args: [head], group: 'peer', key: host },
          withPort ? without(item, ['port']) : item,
          body(),
        );
      });
    },
  };
}

/** `web_script PREFIX [PATH] k=v…;` → web_scripts[PREFIX] = {prefix, path, extra: {k: v}, position}. */
export function webScriptSection(body: () => BlockSpec): Handler {
  return {
    directive: 'web_script',
    keys: ['web_scripts'],
    decode(d, ctx) {
      const { name, extra: rest } = nameArg(d.args, 'a prefix', 'web_script', d.end);
      const item: Record<string, unknown> = {};
      put(item, 'prefix', name.text);
      put(item, 'position', ctx.count('web_script'));
      const [second] = rest;
      const hasPath = second?.kind === 'word' && !second.option;
      if (hasPath) put(item, 'path', second.text);
      const extraHint = propertyHint(body().schema, 'extra');
      const extra: Record<string, unknown> = {};
      for (const arg of rest.slice(hasPath ? 1 : 0)) {
        if (arg.kind !== 'word' || !arg.option)
          throw syntaxError(
            arg.pos,
            "unexpected argument for 'web_script': extra parameters are written key=value",
          );
        if (Object.hasOwn(extra, arg.option.key))
          throw syntaxError(arg.pos, `parameter '${arg.option.key}' of 'web_script' is given twice`);
        put(
          extra,
          arg.option.key,
          scalarFromText(arg.option.value, arg.option.valueBare, propertyHint(extraHint, arg.option.key)),
        );
      }
      if (Object.keys(extra).length > 0) put(item, 'extra', extra);
      if (d.children) merged(item, decodeBlock(body(), d.children).value, 'web_script', d.pos);
      ctx.set(['web_scripts', name.text], item, d.pos);
      return { group: 'web_script', key: name.text };
    },
    encode(_key, value) {
      if (!allPlainObjects(value)) return undefined;
      const spec = body();
      const extraHint = propertyHint(spec.schema, 'extra');
      return byPosition(value).map(([prefix, item]) => {
        const args = [formatString(prefix)];
        const used: string[] = [];
        if (typeof item.path === 'string') {
          args.push(formatString(item.path));
          used.push('path');
        }
        const extra = item.extra;
        if (
          isPlainObject(extra) &&
          Object.keys(extra).length > 0 &&
          Object.entries(extra).every(([k, v]) => isOptionKey(k) && isScalar(v))
        ) {
          for (const [k, v] of Object.entries(extra))
            args.push(`${k}=${formatScalar(v as string, propertyHint(extraHint, k))}`);
          used.push('extra');
        }
        const rest = without(item, used);
        const base: CanonNode = { name: 'web_script', args, group: 'web_script', key: prefix };
        const inBlock = Object.keys(rest).some((k) => rest[k] !== undefined && !Object.hasOwn(spec.omit, k));
        return inBlock ? bodyNode(base, spec, rest) : base;
      });
    },
  };
}
