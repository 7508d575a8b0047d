import type { CanonNode } from './codec/spec.js';

/** Indentation of one block level in printed text. */
export const STEP = '  ';

export function headText(node: CanonNode): string {
  return node.args.length === 0 ? node.name : `${node.name} ${node.args.join(' ')}`;
}

/** A directive in canonical form; `indent` is the indentation of its own line (already written). */
export function printNode(node: CanonNode, indent: string, eol: string): string {
  const head = headText(node);
  if (!node.body) return `${head};`;
  const children = node.body.children;
  if (children.length === 0) return `${head} {}`;
  const inner = indent + STEP;
  let text = `${head} {${eol}`;
  for (const child of children) text += `${inner}${printNode(child, inner, eol)}${eol}`;
  return `${text}${indent}}`;
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
