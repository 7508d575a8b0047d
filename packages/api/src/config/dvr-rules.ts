import type { Config } from './config.js';
import type { Dvr } from './sections.js';

/**
 * The DVR storage rules of spec 002 §5, shared by the console (messages on the DVR page's fields)
 * and the server (a modify_config that breaks them is refused with the same words).
 */
export const DVR_NAME_REQUIRED = 'DVR name is required and should have 1 character at least.';
export const DVR_NAME_USED = 'DVR name should be unique, this name is already used.';
export const DVR_ROOT_REQUIRED = 'DVR root is required and should have 1 character at least.';
export const DVR_ROOT_USED_AS_GLOBAL = 'DVR root should be unique, this root is already used as global.';
export const DVR_ROOT_USED_AS_STREAM_ROOT =
  'DVR root should be unique, this root is already used as stream root path.';

/** A DVR name's problem: empty, or another DVR's name (its own unchanged name is fine). */
export function dvrNameProblem(name: string, otherNames: readonly string[]): string | undefined {
  if (name.length === 0) return DVR_NAME_REQUIRED;
  if (otherNames.includes(name)) return DVR_NAME_USED;
  return undefined;
}

/** Spec 002 §5 compares a DVR root with a stream root "ignoring a leading slash". */
export const withoutLeadingSlash = (root: string): string => root.replace(/^\/+/, '');

/**
 * The dvr roots of the items that record on their own (streams, locations, mirrors), without the
 * leading slash; an item that names a global DVR (`dvr @NAME`) has no root of its own.
 */
export function itemDvrRoots(config: Pick<Config, 'streams' | 'lives' | 'sources'>): Set<string> {
  const roots = new Set<string>();
  for (const section of [config.streams, config.lives, config.sources]) {
    for (const item of Object.values(section ?? {})) {
      const root = item.dvr?.root;
      if (root) roots.add(withoutLeadingSlash(root));
    }
  }
  return roots;
}

/**
 * A DVR root's problem: empty, the root of another DVR (exactly), or the root of an item's own dvr
 * (`itemRoots` from itemDvrRoots, leading slash ignored).
 */
export function dvrRootProblem(
  root: string,
  otherDvrRoots: readonly string[],
  itemRoots: ReadonlySet<string>,
): string | undefined {
  if (root.length === 0) return DVR_ROOT_REQUIRED;
  if (otherDvrRoots.includes(root)) return DVR_ROOT_USED_AS_GLOBAL;
  if (itemRoots.has(withoutLeadingSlash(root))) return DVR_ROOT_USED_AS_STREAM_ROOT;
  return undefined;
}

/** The first DVR whose root breaks a rule of dvrRootProblem, with the message; undefined when none. */
export function dvrRootClash(
  dvrs: Record<string, Dvr>,
  itemRoots: ReadonlySet<string>,
): { name: string; message: string } | undefined {
  const entries = Object.entries(dvrs);
  for (const [name, dvr] of entries) {
    if (dvr.root === undefined) continue;
    const others = entries.filter(([other]) => other !== name).map(([, d]) => d.root ?? '');
    const message = dvrRootProblem(dvr.root, others, itemRoots);
    if (message) return { name, message };
  }
  return undefined;
}
