import { syntaxError } from '../errors.js';
import { formatString } from '../scalars.js';
import type { Word } from '../tree.js';
import { parseNumber } from '../units.js';
import { put } from './block.js';
import { allPlainObjects, byPosition } from './items.js';
import { readOptions, withOptions } from './options.js';
import type { BlockSpec, CanonNode, Handler } from './spec.js';

/** `disk NAME mode=keep;` inside `dvr NAME { … }`: disks[NAME] = {position, mode}, position by order. */
export function diskHandler(item: () => BlockSpec): Handler {
  return {
    directive: 'disk',
    keys: ['disks'],
    decode(d, ctx) {
      const [name, ...rest] = d.args;
      if (!name || name.kind !== 'word' || name.option)
        throw syntaxError(name?.pos ?? d.end, "expected a disk name after 'disk'");
      const disk: Record<string, unknown> = {};
      put(disk, 'position', ctx.count('disk'));
      readOptions(d, rest, item(), disk);
      ctx.set(['disks', name.text], disk, d.pos);
      return { group: 'disks', key: name.text };
    },
    encode(_key, value) {
      if (!allPlainObjects(value)) return undefined;
      return byPosition(value).map((name) =>
        withOptions(
          { name: 'disk', args: [formatString(name)], group: 'disks', key: name },
          value[name] as Record<string, unknown>,
          item(),
          ['position'],
        ),
      );
    },
  };
}

/** HHMM as the console stores it (spec 002 §3); `08:30` is read as 830 too. */
function readTime(w: Word | undefined): number | undefined {
  if (!w || !w.bare) return undefined;
  const clock = /^(\d{1,2}):(\d{2})$/.exec(w.text);
  return clock ? Number(clock[1]) * 100 + Number(clock[2]) : parseNumber(w.text);
}

/** `schedule FROM TO;`, repeated: schedule = [[FROM, TO], …]. */
export const scheduleHandler: Handler = {
  directive: 'schedule',
  keys: ['schedule'],
  decode(d, ctx) {
    const [from, to] = d.args.map((a) => (a.kind === 'word' ? readTime(a) : undefined));
    if (d.args.length !== 2 || d.children || from === undefined || to === undefined) {
      throw syntaxError(
        d.args[0]?.pos ?? d.end,
        "expected 'schedule FROM TO;' with times like 0 2359 or 00:00 23:59",
      );
    }
    ctx.append(['schedule'], [[from, to]], d.pos);
    return { group: 'schedule' };
  },
  encode(_key, value) {
    if (!Array.isArray(value) || value.length === 0) return undefined;
    const nodes: CanonNode[] = [];
    for (const range of value) {
      if (
        !Array.isArray(range) ||
        range.length !== 2 ||
        !range.every((t) => typeof t === 'number' && Number.isFinite(t))
      )
        return undefined;
      nodes.push({ name: 'schedule', args: range.map(String), group: 'schedule' });
    }
    return nodes;
  },
};
