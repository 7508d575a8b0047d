import { isPlainObject } from '@sluice/api';
import { syntaxError } from '../errors.js';
import { formatString, isSafeBare } from '../scalars.js';
import type { Word } from '../tree.js';
import { formatWithUnit, parseNumber, parseWithUnit } from '../units.js';
import { put } from './block.js';
import { blockNode, readOptions, withOptions } from './options.js';
import type { BlockSpec, CanonNode, Handler } from './spec.js';

/**
 * A stream's, location's or mirror's archive: `dvr ROOT [DURATION] [PERCENT%] k=v…;` (own root,
 * depth, disk limit) or `dvr @NAME;` (a global `dvr NAME { … }`). Anything else, e.g. settings
 * without a root, is written as a block `dvr { … }`.
 */
export function itemDvr(spec: () => BlockSpec): Handler {
  return {
    directive: 'dvr',
    keys: ['dvr'],
    decode(d, ctx) {
      const out: Record<string, unknown> = {};
      const positional = d.args.filter((a): a is Word => a.kind === 'word' && !a.option);
      const options = d.args.filter((a) => !positional.includes(a as Word));
      const [head, ...more] = positional;
      if (!head && !d.children) throw syntaxError(d.end, "expected a root path or @NAME after 'dvr'");
      if (head && head.bare && head.text.startsWith('@')) {
        if (head.text.length === 1) throw syntaxError(head.pos, "expected a DVR name after '@'");
        put(out, 'reference', head.text.slice(1));
      } else if (head) put(out, 'root', head.text);
      for (const w of more) {
        const percent = w.bare && w.text.endsWith('%') ? parseNumber(w.text.slice(0, -1)) : undefined;
        const duration = w.bare ? parseWithUnit(w.text, 'duration') : undefined;
        const field = percent !== undefined ? 'disk_limit' : duration !== undefined ? 'dvr_limit' : undefined;
        if (!field) {
          throw syntaxError(
            w.pos,
            `unexpected argument '${w.text}' for 'dvr': expected a depth like 2d or a disk limit like 90%`,
          );
        }
        if (Object.hasOwn(out, field)) throw syntaxError(w.pos, `'dvr' is given two values for ${field}`);
        put(out, field, percent ?? duration);
      }
      readOptions(d, options, spec(), out);
      ctx.set(['dvr'], out, d.pos);
      return { group: 'dvr' };
    },
    encode(_key, value) {
      if (!isPlainObject(value)) return undefined;
      const s = spec();
      const block = (): CanonNode[] => [blockNode('dvr', 'dvr', value, s)];
      const { root, reference, dvr_limit: depth, disk_limit: percent } = value;
      const refOnly = typeof reference === 'string' && root === undefined && isSafeBare(reference);
      const rootOnly = typeof root === 'string' && reference === undefined;
      if (!refOnly && !rootOnly) return block();
      const args = [refOnly ? `@${reference as string}` : formatString(root as string)];
      const used = ['root', 'reference'];
      if (typeof depth === 'number' && Number.isFinite(depth)) {
        args.push(formatWithUnit(depth, 'duration'));
        used.push('dvr_limit');
      }
      if (typeof percent === 'number' && Number.isFinite(percent)) {
        args.push(`${percent}%`);
        used.push('disk_limit');
      }
      const node = withOptions({ name: 'dvr', args, group: 'dvr' }, value, s, used);
      // Settings that cannot be options turn the whole thing into a block, root included.
      return node.body ? block() : [node];
    },
  };
}
