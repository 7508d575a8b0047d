import { describe, expect, it } from 'vitest';
import {
  COUNTRY_ERROR,
  countryLimitChange,
  countryLimitOf,
  countryListKey,
  parseCountries,
  shownCountryLimit,
} from './countries.js';

describe('country limit', () => {
  it('reads the limit from the list that is set', () => {
    expect(countryLimitOf(undefined)).toBe('disabled');
    expect(countryLimitOf({ allowed_countries: ['US'] })).toBe('whitelist');
    expect(countryLimitOf({ disallowed_countries: ['DE'] })).toBe('blacklist');
    expect(countryLimitOf({ allowed_countries: [] })).toBe('disabled');
  });

  it('keeps a chosen whitelist or blacklist while its list is still empty', () => {
    expect(shownCountryLimit({}, 'whitelist')).toBe('whitelist');
    expect(shownCountryLimit({}, 'blacklist')).toBe('blacklist');
    expect(shownCountryLimit({ disallowed_countries: ['RU'] }, 'whitelist')).toBe('blacklist');
  });

  it('each choice clears both lists, so the other is gone and the chosen starts empty', () => {
    expect(countryLimitChange()).toEqual({ allowed_countries: null, disallowed_countries: null });
    expect(countryListKey('whitelist')).toBe('allowed_countries');
    expect(countryListKey('blacklist')).toBe('disallowed_countries');
    expect(countryListKey('disabled')).toBeUndefined();
  });

  it('parses two-letter codes separated by comma or space, upper case, once each', () => {
    expect(parseCountries('us, de fr,,GB')).toEqual({ codes: ['US', 'DE', 'FR', 'GB'] });
    expect(parseCountries('us us')).toEqual({ codes: ['US'] });
    expect(parseCountries('  ')).toEqual({ codes: null });
    expect(parseCountries('USA')).toEqual({ codes: null, error: COUNTRY_ERROR });
    expect(parseCountries('U1').error).toBe(COUNTRY_ERROR);
  });
});
