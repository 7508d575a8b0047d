/** Spec 001 §4 "Country limit", §5 country codes. */
export const COUNTRY_LIMITS = ['disabled', 'whitelist', 'blacklist'] as const;
export type CountryLimit = (typeof COUNTRY_LIMITS)[number];

export const COUNTRY_HINT = 'Two-letter country codes, separated by comma or space';
export const COUNTRY_ERROR = 'A country code is two letters (e.g. US, DE), separated by comma or space';

interface CountryLists {
  allowed_countries?: readonly string[] | null;
  disallowed_countries?: readonly string[] | null;
}

/** The limit the lists say: a whitelist when allowed countries are set, a blacklist for disallowed. */
export function countryLimitOf(auth: CountryLists | undefined): CountryLimit {
  if (auth?.allowed_countries?.length) return 'whitelist';
  if (auth?.disallowed_countries?.length) return 'blacklist';
  return 'disabled';
}

/** The list a limit edits. */
export function countryListKey(
  limit: CountryLimit,
): 'allowed_countries' | 'disallowed_countries' | undefined {
  if (limit === 'whitelist') return 'allowed_countries';
  if (limit === 'blacklist') return 'disallowed_countries';
  return undefined;
}

/** Choosing a limit clears the other list, and the chosen one starts empty (spec 001 §4). */
export const countryLimitChange = (): { allowed_countries: null; disallowed_countries: null } => ({
  allowed_countries: null,
  disallowed_countries: null,
});

/**
 * Typed country codes: two letters each, separated by comma or space, held upper case as the
 * config keeps them. Nothing typed is null (the list removed); anything else than two letters is an error.
 */
export function parseCountries(text: string): { codes: string[] | null; error?: string } {
  const tokens = text.split(/[\s,]+/).filter((t) => t !== '');
  if (tokens.some((t) => !/^[A-Za-z]{2}$/.test(t))) return { codes: null, error: COUNTRY_ERROR };
  const codes = [...new Set(tokens.map((t) => t.toUpperCase()))];
  return { codes: codes.length > 0 ? codes : null };
}

export const formatCountries = (codes: readonly string[] | null | undefined): string =>
  (codes ?? []).join(', ');

/** The limit the radio shows: what the lists say, or the operator's choice while its list is still empty. */
export function shownCountryLimit(
  auth: CountryLists | undefined,
  chosen: CountryLimit | undefined,
): CountryLimit {
  const stored = countryLimitOf(auth);
  return stored === 'disabled' ? (chosen ?? 'disabled') : stored;
}
