import { encodeBlock, encodeKey, orderedKeys } from './codec/block.js';
import { sectionItems } from './codec/items.js';
import type { BlockSpec, CanonNode } from './codec/spec.js';
import { headText, STEP } from './printer.js';
import { groupBy } from './slots.js';

/** Appends a directive's canonical text, as printNode writes it, to `out`. */
function printInto(out: string[], node: CanonNode, indent: string): void {
  out.push(headText(node));
  const children = node.body?.children;
  if (!children) return void out.push(';');
  if (children.length === 0) return void out.push(' {}');
  out.push(' {\n');
  const inner = indent + STEP;
  for (const child of children) {
    out.push(inner);
    printInto(out, child, inner);
    out.push('\n');
  }
  out.push(indent, '}');
}

/**
 * The canonical text of a config: what merging it over an empty file writes, printed straight
 * from its directives. One directive per line, sections apart from the globals and a block apart
 * from the directive before it by a blank line; the directives of a group together, in the order
 * the groups first appear.
 */
export function printCanonical(spec: BlockSpec, config: Record<string, unknown>): string {
  const out: string[] = [];
  const seen = new Set<string>();
  let lastGroup: string | undefined;
  const print = (node: CanonNode) => {
    if (node.group !== lastGroup) {
      if (seen.has(node.group)) return false;
      seen.add(node.group);
    }
    const apart = spec.sections.has(node.group) && (node.body !== undefined || lastGroup !== node.group);
    if (apart && out.length > 0) out.push('\n');
    printInto(out, node, '');
    out.push('\n');
    lastGroup = node.group;
    return true;
  };
  for (const key of orderedKeys(spec, config)) {
    const value = config[key];
    if (value === undefined || Object.hasOwn(spec.omit, key)) continue;
    // Items are encoded and printed one at a time: their directives are garbage at once, instead
    // of all of them living until the whole file is printed.
    const section = spec.byKey.get(key)?.section;
    const items = section && sectionItems(section, value);
    if (section && items) {
      for (let i = 0; i < items.keys.length; i++) {
        const item = items.values[i] as Record<string, unknown>;
        if (!print(section.encodeItem(items.keys[i] as string, item))) return printGrouped(spec, config);
      }
    } else if (!encodeKey(spec, key, value).every(print)) return printGrouped(spec, config);
  }
  return out.join('');
}

/** The same, for a config whose groups would not come out one after the other (none known). */
function printGrouped(spec: BlockSpec, config: Record<string, unknown>): string {
  const out: string[] = [];
  let lastGroup: string | undefined;
  for (const nodes of groupBy(encodeBlock(spec, config), (n) => n.group).values()) {
    for (const node of nodes) {
      const apart = spec.sections.has(node.group) && (node.body !== undefined || lastGroup !== node.group);
      if (apart && out.length > 0) out.push('\n');
      printInto(out, node, '');
      out.push('\n');
      lastGroup = node.group;
    }
  }
  return out.join('');
}
