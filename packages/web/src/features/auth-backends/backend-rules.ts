import type { AuthBackend } from '@sluice/api';

/**
 * The Auth backends page's rules (spec 002 §2, §3 "Auth backend", §5): values are added to a
 * backend's allow or deny lists or its backend urls; a duplicate in the same list is refused with no
 * message; names are trimmed. Every function returns a new backend and leaves its input alone.
 */
export const MODES = ['allow', 'deny', 'backend'] as const;
export type Mode = (typeof MODES)[number];
export const VARIANTS = ['ip', 'token', 'country', 'ua'] as const;
export type Variant = (typeof VARIANTS)[number];

type ListKey = 'ips' | 'tokens' | 'countries' | 'uas';
const LIST_OF: Record<Variant, ListKey> = { ip: 'ips', token: 'tokens', country: 'countries', ua: 'uas' };

/** One value of a backend: a rule (allow or deny, of a variant) or a backend url. */
export interface Rule {
  mode: Mode;
  variant: Variant;
  value: string;
}

/** A typed value as it is kept: trimmed; a country upper case. */
export function cleanValue(variant: Variant, mode: Mode, value: string): string {
  const trimmed = value.trim();
  return mode !== 'backend' && variant === 'country' ? trimmed.toUpperCase() : trimmed;
}

function listOf(backend: AuthBackend, rule: Pick<Rule, 'mode' | 'variant'>): string[] {
  if (rule.mode === 'backend') return (backend.backends ?? []).map((b) => b.url);
  return [...(backend[rule.mode]?.[LIST_OF[rule.variant]] ?? [])];
}

/** The backend with `rule`'s list replaced; an emptied list (and an emptied allow/deny) removed. */
function withList(backend: AuthBackend, rule: Pick<Rule, 'mode' | 'variant'>, values: string[]): AuthBackend {
  const out: AuthBackend = { ...backend };
  if (rule.mode === 'backend') {
    if (values.length > 0) out.backends = values.map((url) => ({ url }));
    else delete out.backends;
    return out;
  }
  const lists = { ...(backend[rule.mode] ?? {}) };
  const key = LIST_OF[rule.variant];
  if (values.length > 0) lists[key] = values;
  else delete lists[key];
  if (Object.keys(lists).length > 0) out[rule.mode] = lists;
  else delete out[rule.mode];
  return out;
}

export const hasRule = (backend: AuthBackend, rule: Rule): boolean =>
  listOf(backend, rule).includes(rule.value);

/** Adds a value; an empty one or one already in that list is refused: the same backend comes back. */
export function addRule(backend: AuthBackend, rule: Rule): AuthBackend {
  if (rule.value === '' || hasRule(backend, rule)) return backend;
  return withList(backend, rule, [...listOf(backend, rule), rule.value]);
}

export function removeRule(backend: AuthBackend, rule: Rule): AuthBackend {
  if (!hasRule(backend, rule)) return backend;
  return withList(
    backend,
    rule,
    listOf(backend, rule).filter((v) => v !== rule.value),
  );
}

/** Replaces a value in place when it stays in the same list, so the chip keeps its place. */
export function replaceRule(backend: AuthBackend, old: Rule, next: Rule): AuthBackend {
  const sameList = old.mode === next.mode && (old.mode === 'backend' || old.variant === next.variant);
  if (!sameList) return addRule(removeRule(backend, old), next);
  if (next.value === '' || (next.value !== old.value && hasRule(backend, next))) return backend;
  return withList(
    backend,
    old,
    listOf(backend, old).map((v) => (v === old.value ? next.value : v)),
  );
}

export const CHIP_GROUPS = ['Token', 'IP', 'Country', 'UA', 'Backend'] as const;
export type ChipGroup = (typeof CHIP_GROUPS)[number];
const GROUP_VARIANT: Record<Exclude<ChipGroup, 'Backend'>, Variant> = {
  Token: 'token',
  IP: 'ip',
  Country: 'country',
  UA: 'ua',
};

export interface Chip extends Rule {
  /** Allowed green, denied red (spec 002 §2); backend urls neutral. */
  color: 'green' | 'red' | 'blue';
}

/** A backend's values as chips, in the groups of spec 002 §2; a group with no value is left out. */
export function chipGroups(backend: AuthBackend): { group: ChipGroup; chips: Chip[] }[] {
  const groups = CHIP_GROUPS.map((group) => {
    if (group === 'Backend') {
      const chips = (backend.backends ?? []).map((b): Chip => ({
        mode: 'backend',
        variant: 'ip',
        value: b.url,
        color: 'blue',
      }));
      return { group, chips };
    }
    const variant = GROUP_VARIANT[group];
    const chips = (['allow', 'deny'] as const).flatMap((mode) =>
      listOf(backend, { mode, variant }).map((value): Chip => ({
        mode,
        variant,
        value,
        color: mode === 'allow' ? 'green' : 'red',
      })),
    );
    return { group, chips };
  });
  return groups.filter((g) => g.chips.length > 0);
}

/**
 * A rename: the trimmed name, or undefined when it is refused (empty, or another backend's name)
 * or changes nothing.
 */
export function renamedTo(old: string, typed: string, names: readonly string[]): string | undefined {
  const name = typed.trim();
  if (name === '' || name === old || names.includes(name)) return undefined;
  return name;
}

/** A name for a new backend: auth1, auth2, … the first not taken. */
export function newBackendName(names: readonly string[]): string {
  let n = 1;
  while (names.includes(`auth${n}`)) n++;
  return `auth${n}`;
}

/** The position after the last one (spec 000: list order kept in `position`). */
export const nextPosition = (backends: Record<string, AuthBackend>): number =>
  Object.values(backends).reduce((max, b) => Math.max(max, (b.position ?? -1) + 1), 0);

/** Backends in list order: by position, then name. */
export const orderedNames = (backends: Record<string, AuthBackend>): string[] =>
  Object.keys(backends).sort(
    (a, b) => (backends[a]?.position ?? 0) - (backends[b]?.position ?? 0) || a.localeCompare(b),
  );
