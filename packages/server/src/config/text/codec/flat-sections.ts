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
import { decodeBlock, put } from './block.js';
import { bodyNode, encodeItems } from './items.js';
import { readOptions, withOptions, without } from './options.js';
import { merged, nameArg } from './sections.js';
import type { BlockSpec, CanonNode, Handler, SectionItems } from './spec.js';

const HOST_PORT = /^(.+):(\d+)$/;

/** `peer HOST[:PORT] k=v…;` → peers[HOST] = {name, port, position}. A quoted host is never split. */
export function peerSection(body: () => BlockSpec): Handler {
  const section: SectionItems = {
    keyField: 'name',
    positioned: true,
    keyed: true,
    encodeItem(host, item) {
      const port = item.port;
      const withPort =
        typeof port === 'number' && Number.isSafeInteger(port) && port >= 0 && formatString(host) === host;
      const head = withPort
        ? `${host}:${port}`
        : isSafeBare(host) && !HOST_PORT.test(host)
          ? formatString(host)
          : quote(host);
      return withOptions({ name: 'peer', args: [head], group: 'peer', key: host }, item, body(), [
        ...(withPort ? ['port'] : []),
      ]);
    },
  };
  return {
    directive: 'peer',
    keys: ['peers'],
    section,
    decode(d, ctx) {
      const name = nameArg(d.args, 'HOST or HOST:PORT', 'peer', d.end);
      const split = name.bare ? HOST_PORT.exec(name.text) : null;
      const host = split ? (split[1] as string) : name.text;
      const item: Record<string, unknown> = {};
      put(item, 'name', host);
      put(item, 'position', ctx.count('peer'));
      if (split) put(item, 'port', Number(split[2]));
      readOptions(d, d.args, body(), item, 1);
      ctx.set(['peers', host], item, d.pos);
      return { group: 'peer', key: host, value: item };
    },
    encode: (_key, value) => encodeItems(section, value),
  };
}

/** `web_script PREFIX [PATH] k=v…;` → web_scripts[PREFIX] = {prefix, path, extra: {k: v}, position}. */
export function webScriptSection(body: () => BlockSpec): Handler {
  const section: SectionItems = {
    keyField: 'prefix',
    positioned: true,
    keyed: true,
    encodeItem(prefix, item) {
      const spec = body();
      const extraHint = propertyHint(spec.schema, 'extra');
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
      const inBlock = Object.keys(rest).some((k) => rest[k] !== undefined && !Object.hasOwn(spec.omit, k));
      if (inBlock) return bodyNode('web_script', args, prefix, spec, rest);
      const node: CanonNode = { name: 'web_script', args, group: 'web_script', key: prefix };
      return node;
    },
  };
  return {
    directive: 'web_script',
    keys: ['web_scripts'],
    section,
    decode(d, ctx) {
      const name = nameArg(d.args, 'a prefix', 'web_script', d.end);
      const item: Record<string, unknown> = {};
      put(item, 'prefix', name.text);
      put(item, 'position', ctx.count('web_script'));
      const second = d.args[1];
      const hasPath = second?.kind === 'word' && !second.option;
      if (hasPath) put(item, 'path', second.text);
      const extraHint = propertyHint(body().schema, 'extra');
      const extra: Record<string, unknown> = {};
      for (const arg of d.args.slice(hasPath ? 2 : 1)) {
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
      return { group: 'web_script', key: name.text, value: item };
    },
    encode: (_key, value) => encodeItems(section, value),
  };
}
