import { isPlainObject } from '@sluice/api';
import { syntaxError } from '../errors.js';
import { formatString } from '../scalars.js';
import type { Word } from '../tree.js';
import { put } from './block.js';
import { blockNode, readOptions, withOptions } from './options.js';
import type { BlockSpec, Handler } from './spec.js';

/**
 * `edit_auth LOGIN PASSWORD;` and `view_auth LOGIN PASSWORD;`. The two first arguments are taken as
 * they are, even when they contain `=`, so that a password like `pa=ss` needs no quotes.
 */
export function credentialsHandler(directive: 'edit_auth' | 'view_auth', spec: () => BlockSpec): Handler {
  return {
    directive,
    keys: [directive],
    decode(d, ctx) {
      const words = d.args.slice(0, 2).filter((a): a is Word => a.kind === 'word');
      const out: Record<string, unknown> = {};
      if (!d.children) {
        if (words.length === 0)
          throw syntaxError(d.args[0]?.pos ?? d.end, `expected a login and a password after '${directive}'`);
        if (words.length === 1)
          throw syntaxError(d.args[1]?.pos ?? d.end, `expected a password after the login of '${directive}'`);
      }
      const [login, password] = words;
      if (login) put(out, 'login', login.text);
      if (password) put(out, 'password', password.text);
      readOptions(d, d.args.slice(words.length), spec(), out);
      ctx.set([directive], out, d.pos);
      return { group: directive, value: out };
    },
    encode(_key, value) {
      if (!isPlainObject(value) || typeof value.login !== 'string' || typeof value.password !== 'string')
        return undefined;
      const args = [formatString(value.login), formatString(value.password)];
      const node = withOptions({ name: directive, args, group: directive }, value, spec(), [
        'login',
        'password',
      ]);
      // Settings that cannot be options: the whole value goes into a block.
      return [node.body ? blockNode(directive, directive, value, spec()) : node];
    },
  };
}
