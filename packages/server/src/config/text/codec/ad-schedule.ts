import { isPlainObject } from '@sluice/api';
import { syntaxError } from '../errors.js';
import { formatScalar, formatString } from '../scalars.js';
import type { Directive } from '../tree.js';
import { parseNumber } from '../units.js';
import { decodeBlock, put } from './block.js';
import { bodyNode } from './items.js';
import { nameArg } from './sections.js';
import type { BlockSpec, CanonNode, Handler } from './spec.js';

/**
 * Ad schedules (docs/config.md "Ad schedules"):
 *
 *   ad_schedule morning {
 *     slot 08:00:00 30;          # start (server local time) and duration in seconds
 *     file vod/ads/cola.mp4 2;   # a VOD file 'prefix/path' and its weight
 *   }
 *
 * ad_schedules is a list, in the order of the file. A stream names one with `ad_schedule morning;`
 * (a plain setting of the stream, read generically).
 */

/** `NAME A B;`: two plain words, the second a number. */
function pair(d: Directive, what: string): [string, number] {
  const [first, second, extra] = d.args;
  const number =
    second?.kind === 'word' && second.bare && !second.option ? parseNumber(second.text) : undefined;
  if (!first || first.kind !== 'word' || first.option || number === undefined || extra || d.children)
    throw syntaxError(d.args[0]?.pos ?? d.end, `expected '${d.name} ${what};'`);
  return [first.text, number];
}

/** Lists of `{a: string, b: number}` only: anything else is written generically (JSON). */
function pairs(value: unknown, a: string, b: string): [string, number][] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: [string, number][] = [];
  for (const v of value) {
    if (!isPlainObject(v) || Object.keys(v).length !== 2) return undefined;
    const x = v[a];
    const y = v[b];
    if (typeof x !== 'string' || typeof y !== 'number' || !Number.isFinite(y)) return undefined;
    out.push([x, y]);
  }
  return out;
}

function listHandler(directive: string, key: string, a: string, b: string, what: string): Handler {
  return {
    directive,
    keys: [key],
    decode(d, ctx) {
      const [x, y] = pair(d, what);
      const item: Record<string, unknown> = {};
      put(item, a, x);
      put(item, b, y);
      ctx.append([key], [item], d.pos);
      return { group: key };
    },
    encode(_key, value) {
      const list = pairs(value, a, b);
      if (!list) return undefined;
      // An empty list is written as nothing: a schedule without these lines reads as [].
      return list.map(([x, y]): CanonNode => ({
        name: directive,
        args: [formatString(x), formatScalar(y)],
        group: key,
      }));
    },
  };
}

export const slotHandler = listHandler('slot', 'slots', 'from', 'duration', 'HH:mm:ss SECONDS');
export const adFileHandler = listHandler('file', 'files', 'name', 'weight', 'PREFIX/PATH WEIGHT');

/** `ad_schedule NAME { slot …; file …; }` at the top level, appended to ad_schedules. */
export function adScheduleSection(body: () => BlockSpec): Handler {
  return {
    directive: 'ad_schedule',
    keys: ['ad_schedules'],
    decode(d, ctx) {
      const name = nameArg(d.args, 'an ad schedule name', 'ad_schedule', d.end);
      const extra = d.args[1];
      if (extra) throw syntaxError(extra.pos, "slots and files of 'ad_schedule' go inside its block");
      const item: Record<string, unknown> = {};
      put(item, 'name', name.text);
      if (d.children) decodeBlock(body(), d.children, item);
      if (!Object.hasOwn(item, 'slots')) put(item, 'slots', []);
      if (!Object.hasOwn(item, 'files')) put(item, 'files', []);
      ctx.append(['ad_schedules'], [item], d.pos);
      return { group: 'ad_schedule', key: name.text, value: item };
    },
    encode(_key, value) {
      if (!Array.isArray(value) || value.length === 0) return undefined;
      const spec = body();
      const nodes: CanonNode[] = [];
      for (const item of value) {
        if (!isPlainObject(item) || typeof item.name !== 'string') return undefined;
        const { slots = [], files = [] } = item;
        if (!pairs(slots, 'from', 'duration') || !pairs(files, 'name', 'weight')) return undefined;
        nodes.push(bodyNode('ad_schedule', [formatString(item.name)], item.name, spec, item));
      }
      return nodes;
    },
  };
}
