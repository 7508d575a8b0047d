import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { config } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { NOT_APPLIED } from '../../web/src/lib/not-applied.js';
import { GLOBAL_FIELDS } from './field-review/fields-000.js';
import { LOCATION_FIELDS, MIRROR_FIELDS, STREAM_FIELDS } from './field-review/fields-001.js';
import { AUTH_BACKEND_FIELDS, DVR_FIELDS, VOD_FIELDS } from './field-review/fields-002.js';
import { AD_FIELDS } from './field-review/fields-002-ads.js';
import type { Review } from './field-review/review.js';
import { schemaFields } from './field-review/walk-schema.js';

/**
 * The field review of issue 23 ("no setting is a lie"): every field of the config schema (specs
 * 000–002) is either applied, named with the test that proves its effect, or not applied and marked
 * so in the console. A new schema field fails here until someone reviews it.
 */
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const table: Record<string, Review> = {
  ...GLOBAL_FIELDS,
  ...STREAM_FIELDS,
  ...LOCATION_FIELDS,
  ...MIRROR_FIELDS,
  ...VOD_FIELDS,
  ...DVR_FIELDS,
  ...AUTH_BACKEND_FIELDS,
  ...AD_FIELDS,
};
const fields = schemaFields(config);
const rows = Object.entries(table);
const read = (file: string) => readFileSync(join(repo, file), 'utf8');

/** The console's source, where a NotAppliedMark names its field. */
function webSources(dir = join(repo, 'packages/web/src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? webSources(join(dir, entry.name))
      : /\.tsx$/.test(entry.name) && !entry.name.includes('.test.')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('field review (specs 000–002)', () => {
  it('walks the whole schema', () => {
    // A walk that lost its way would find a handful of fields and pass everything below.
    expect(fields.length).toBeGreaterThan(250);
    expect(fields).toContain('streams.*.urls[].program');
    expect(fields).toContain('dvrs.*.disks.*.mode');
  });

  it('reviews every field, and no field the schema does not have', () => {
    expect(fields.filter((field) => !(field in table))).toEqual([]);
    expect(Object.keys(table).filter((field) => !fields.includes(field))).toEqual([]);
  });

  it('names, for each applied field, a test that exists', () => {
    const missing = rows.flatMap(([field, review]) => {
      if (review.kind !== 'applied') return [];
      if (review.title.trim().length < 12) return [`${field}: no test title given (${review.file})`];
      if (!existsSync(join(repo, review.file))) return [`${field}: ${review.file} does not exist`];
      return read(review.file).includes(review.title)
        ? []
        : [`${field}: ${review.file} › "${review.title}" not found`];
    });
    expect(missing).toEqual([]);
  });

  it('marks each field that is not applied in the console', () => {
    const marks = new Map(webSources().map((file) => [file, readFileSync(file, 'utf8')]));
    const unmarked = rows.flatMap(([field, review]) => {
      if (review.kind !== 'not-applied') return [];
      if (review.mark) {
        const form = review.form && marks.get(join(repo, review.form));
        return form?.includes(review.mark) ? [] : [`${field}: ${review.form} does not show ${review.mark}`];
      }
      if (!(field in NOT_APPLIED)) return [`${field}: not in packages/web/src/lib/not-applied.ts`];
      if (!review.form) return [];
      const form = marks.get(join(repo, review.form));
      if (form === undefined) return [`${field}: ${review.form} does not exist`];
      // The mark takes the form's config path (lib/not-applied.ts reviewField): the form must render
      // one and hold the field's key.
      const key = field.split('.').at(-1)!.replace('[]', '');
      return form.includes('<NotAppliedMark') && (form.includes(`'${key}'`) || form.includes(`"${key}"`))
        ? []
        : [`${field}: ${review.form} renders no NotAppliedMark for '${key}'`];
    });
    expect(unmarked).toEqual([]);
  });

  it('marks no field the review finds applied', () => {
    // A mark on a field that works would be a lie the other way round.
    const stale = Object.keys(NOT_APPLIED).filter((field) => table[field]?.kind !== 'not-applied');
    expect(stale).toEqual([]);
  });
});
