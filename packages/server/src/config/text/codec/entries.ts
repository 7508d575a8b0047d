import { isPlainObject } from '@sluice/api';
import { syntaxError } from '../errors.js';
import { formatString } from '../scalars.js';
import { put } from './block.js';
import { readOptions, withOptions } from './options.js';
import type { BlockSpec, CanonNode, Handler } from './spec.js';

/**
 * A repeated directive that appends `{url, …options}` to a list: `url URL k=v;` (stream and live
 * inputs), `push URL;`, `path DIR;` (a VOD's folders), `backend URL;` (an auth backend's URLs).
 * One directive per item keeps each item on its own line, with its own comments.
 */
export function entryList(directive: string, key: string, item: () => BlockSpec): Handler {
  const path = [key];
  return {
    directive,
    keys: [key],
    decode(d, ctx) {
      const first = d.args[0];
      if (!first || first.kind !== 'word' || first.option) {
        throw syntaxError(first?.pos ?? d.end, `expected a URL after '${directive}'`);
      }
      const entry: Record<string, unknown> = {};
      put(entry, 'url', first.text);
      readOptions(d, d.args, item(), entry, 1);
      ctx.append(path, [entry], d.pos);
      return { group: key };
    },
    encode(_key, value) {
      if (!Array.isArray(value) || value.length === 0) return undefined;
      const spec = item();
      const nodes: CanonNode[] = [];
      for (const v of value) {
        // The schema accepts plain strings and stores {url}; both are written `url URL;`.
        const url =
          typeof v === 'string' ? v : isPlainObject(v) && typeof v.url === 'string' ? v.url : undefined;
        if (url === undefined) return undefined;
        const base = { name: directive, args: [formatString(url)], group: key };
        nodes.push(isPlainObject(v) ? withOptions(base, v, spec, ['url']) : base);
      }
      return nodes;
    },
  };
}
