import type { CanonNode } from './codec/spec.js';

/** Indentation of one block level in printed text. */
export const STEP = '  ';

export function headText(node: CanonNode): string {
  return [node.name, ...node.args].join(' ');
}

/** A directive in canonical form; `indent` is the indentation of its own line (already written). */
export function printNode(node: CanonNode, indent: string, eol: string): string {
  if (!node.body) return `${headText(node)};`;
  if (node.body.children.length === 0) return `${headText(node)} {}`;
  const inner = indent + STEP;
  const lines = node.body.children.map((child) => `${inner}${printNode(child, inner, eol)}${eol}`);
  return `${headText(node)} {${eol}${lines.join('')}${indent}}`;
}

const texts = new WeakMap<CanonNode, string>();

/** The canonical text of a node, for comparing two nodes by content. */
export function textOf(node: CanonNode): string {
  let text = texts.get(node);
  if (text === undefined) {
    text = printNode(node, '', '\n');
    texts.set(node, text);
  }
  return text;
}
