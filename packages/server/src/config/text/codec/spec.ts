import type { Hint } from '../schema-hints.js';
import type { Directive, Pos } from '../tree.js';
import type { Unit } from '../units.js';

/**
 * Identity of a directive for the merge printer: `group` is the JSON field it feeds (`urls`,
 * `allow.ips`, `stream`), `key` the item it names when the group is keyed (`stream foo` → foo).
 * Directives of an unkeyed group are matched by content, then by order.
 */
export interface Ann {
  group: string;
  key?: string;
  /**
   * Set by directives that make one JSON value alone (a section item, a top-level setting): that
   * value, which a document remembers to tell later which items an edit left as they were.
   */
  value?: unknown;
}

/** A directive as the canonical printer writes it; names and arguments are already quoted as needed. */
export interface CanonNode {
  name: string;
  args: string[];
  body?: { spec: BlockSpec; value: Record<string, unknown>; children: CanonNode[] };
  group: string;
  key?: string;
}

export interface DecodeCtx {
  readonly spec: BlockSpec;
  /** out[path] = value; a second definition of the same path is an error naming the first. */
  set(path: readonly string[], value: unknown, pos: Pos): void;
  /** Appends to the list at out[path], creating it (possibly empty). */
  append(path: readonly string[], items: readonly unknown[], pos: Pos): void;
  /** The value at out[path] so far (the list a repeated directive appends to). */
  valueAt(path: readonly string[]): unknown;
  /** How many directives of this name came before in this block (a section item's position). */
  count(name: string): number;
}

/** A directive with its own syntax (url, dvr, stream …). Other directives use the generic rules. */
export interface Handler {
  readonly directive: string;
  /** JSON keys this handler writes; their values go through `encode`. */
  readonly keys: readonly string[];
  decode(d: Directive, ctx: DecodeCtx): Ann;
  /** The directives for value[key], or undefined when this value cannot be written in this form. */
  encode(key: string, value: unknown, spec: BlockSpec): CanonNode[] | undefined;
  /** Set for top-level sections (`stream NAME { … }`…): their items, one directive each. */
  readonly section?: SectionItems;
}

/**
 * The items of a section one by one, so that an edit re-encodes only the items it changed. Used
 * when every item of the section is a plain object (else the section is written generically).
 */
export interface SectionItems {
  /** Where the item copies its key (`name`, `prefix`): the header carries it, not the block. */
  readonly keyField?: string;
  /**
   * Items carry a `position`, their order among the items of the section, and are written in that
   * order; the text never holds it. Other items are written in key order.
   */
  readonly positioned: boolean;
  /** Old and new items are paired by key; mirrors, keyed by their position, are paired by content. */
  readonly keyed: boolean;
  encodeItem(key: string, item: Record<string, unknown>): CanonNode;
}

/** How the children of one kind of block map to a JSON object. */
export interface BlockSpec {
  readonly label: string;
  readonly schema: Hint;
  readonly handlers: readonly Handler[];
  readonly units: Readonly<Record<string, Unit>>;
  /** Keys never written in this block (key fields, position, stats), with why, for the error when read. */
  readonly omit: Readonly<Record<string, string>>;
  /** Keys written last, in this order (the top level's sections). */
  readonly last: readonly string[];
  /** Names a generic key must be quoted under, because they are read specially here. */
  readonly reserved: ReadonlySet<string>;
  /** Directive names that form groups of their own at the top level (sections), for placing new ones. */
  readonly sections: ReadonlySet<string>;
  /** The handler of a bare directive name, and the handler writing a JSON key. */
  readonly byDirective: ReadonlyMap<string, Handler>;
  readonly byKey: ReadonlyMap<string, Handler>;
  /**
   * Where each key goes in the canonical order: declared keys in schema order, then keys this
   * version does not know (absent here), then `last`.
   */
  readonly rank: ReadonlyMap<string, number>;
  nested(key: string): BlockSpec;
}
