import { isPlainObject } from '@sluice/api';
import { syntaxError } from '../errors.js';
import { formatString } from '../scalars.js';
import { decodeBlock } from './block.js';
import { blockNode } from './options.js';
import type { BlockSpec, CanonNode, Handler } from './spec.js';

/** `allow ip 10.0.0.0/8;` → allow.ips; the rule kinds and their list fields (spec 002 §3). */
const KINDS: Record<string, string> = { ip: 'ips', token: 'tokens', country: 'countries', ua: 'uas' };
const LISTS = Object.entries(KINDS);

/**
 * `allow|deny KIND VALUE…;` rules of an auth backend, `allow default;` / `deny default;` for
 * allow_default, or `allow { … }` for lists this version does not know. The writer puts one value
 * per line, so that each IP or token keeps its own comment.
 */
export function ruleHandler(directive: 'allow' | 'deny', lists: () => BlockSpec): Handler {
  return {
    directive,
    keys: directive === 'allow' ? ['allow', 'allow_default'] : ['deny'],
    decode(d, ctx) {
      if (d.children) {
        const first = d.args[0];
        if (first) throw syntaxError(first.pos, `'${directive}' takes either a rule or a block, not both`);
        const block = decodeBlock(lists(), d.children).value;
        // An empty block still means "an empty rule set": keep the key.
        if (Object.keys(block).length === 0) ctx.set([directive], block, d.pos);
        for (const [key, value] of Object.entries(block)) ctx.set([directive, key], value, d.pos);
        return { group: directive };
      }
      const [kind, ...values] = d.args;
      if (!kind || kind.kind !== 'word')
        throw syntaxError(
          kind?.pos ?? d.end,
          `expected ip, token, country, ua or default after '${directive}'`,
        );
      if (kind.text === 'default' && kind.bare) {
        if (values[0]) throw syntaxError(values[0].pos, `'${directive} default' takes no value`);
        ctx.set(['allow_default'], directive === 'allow', d.pos);
        return { group: 'allow_default' };
      }
      const list = Object.hasOwn(KINDS, kind.text) ? KINDS[kind.text] : undefined;
      if (!list)
        throw syntaxError(
          kind.pos,
          `unknown rule '${kind.text}' for '${directive}': expected ip, token, country, ua or default`,
        );
      const texts = values.map((v) => {
        if (v.kind !== 'word')
          throw syntaxError(v.pos, `write the values of '${directive} ${kind.text}' without brackets`);
        return v.text;
      });
      ctx.append([directive, list], texts, d.pos);
      return { group: `${directive}.${list}` };
    },
    encode(key, value) {
      if (key === 'allow_default') {
        if (typeof value !== 'boolean') return undefined;
        return [{ name: value ? 'allow' : 'deny', args: ['default'], group: 'allow_default' }];
      }
      if (!isPlainObject(value)) return undefined;
      const simple =
        Object.keys(value).length > 0 &&
        Object.entries(value).every(
          ([k, v]) =>
            LISTS.some(([, l]) => l === k) && Array.isArray(v) && v.every((s) => typeof s === 'string'),
        );
      if (!simple) {
        return [blockNode(directive, directive, value, lists())];
      }
      const nodes: CanonNode[] = [];
      for (const [kind, list] of LISTS) {
        const values = value[list] as string[] | undefined;
        if (!values) continue;
        const group = `${directive}.${list}`;
        if (values.length === 0) nodes.push({ name: directive, args: [kind], group });
        for (const v of values) nodes.push({ name: directive, args: [kind, formatString(v)], group });
      }
      return nodes;
    },
  };
}
