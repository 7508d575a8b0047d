import { topSpec } from './codec/specs.js';
import { genericGroup } from './codec/generic.js';
import { type ConfigDocument, stateOf } from './document.js';
import type { Entry, Pos } from './tree.js';

/**
 * Where in the text the value at a config path (a schema issue's path: `streams.foo.urls.0`) is
 * written: the directive of its item (`stream foo { … }`), and inside its block the directive of
 * the field when one is named after it. Undefined when no directive of the text writes it (a key
 * the schema found missing at the top level). The schema checks the JSON config, not the text:
 * this is what lets its message say which line to look at.
 */
export function locatePath(document: ConfigDocument, path: readonly PropertyKey[]): Pos | undefined {
  const [top, item, ...rest] = path.map((p) => String(p));
  if (top === undefined) return undefined;
  const { anns, tree } = stateOf(document);
  const handler = topSpec().byKey.get(top);
  const group = handler?.directive ?? genericGroup(top);
  const indexes = anns.flatMap((ann, i) => (ann.group === group ? [i] : []));
  if (indexes.length === 0) return undefined;
  let at = indexes[0] as number;
  let inner = [item, ...rest].filter((p) => p !== undefined);
  if (handler?.section && item !== undefined) {
    // Mirrors are keyed by their position: the n-th `source` directive.
    const found = handler.section.keyed ? indexes.find((i) => anns[i]?.key === item) : indexes[Number(item)];
    if (found === undefined) return (tree.entries[at] as Entry).directive.pos;
    at = found;
    inner = rest;
  }
  return within(tree.entries[at] as Entry, inner);
}

/** The deepest directive of `entry`'s block that the path names (`urls.1` → the second `url`). */
function within(entry: Entry, path: readonly string[]): Pos {
  const [field, next, ...rest] = path;
  const children = entry.directive.children;
  if (field === undefined || !children) return entry.directive.pos;
  const named = children.filter((c) => c.directive.name === field || `${c.directive.name}s` === field);
  if (named.length === 0) return entry.directive.pos;
  const index = next !== undefined && /^\d+$/.test(next) ? Number(next) : undefined;
  if (index !== undefined) {
    const child = named[index] ?? named[0];
    return within(child as Entry, rest);
  }
  return within(named[0] as Entry, next === undefined ? [] : [next, ...rest]);
}
