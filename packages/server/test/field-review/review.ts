/**
 * One row of the field review (issue 23: no setting is a lie). A field is `applied` when a test
 * sets it and asserts what an operator would notice (the test is named by file and title), or
 * `not-applied` with why; a not-applied field the console shows must carry its mark there.
 */
export type Review =
  | { kind: 'applied'; file: string; title: string }
  | { kind: 'not-applied'; reason: string; form?: string; mark?: string };

const files = {
  srv: 'packages/server/test/',
  src: 'packages/server/src/',
  e2e: 'packages/web/e2e/',
} as const;

/** `file` is relative to packages/server/test unless it starts with src/ or e2e/. */
export function applied(file: string, title: string): Review {
  const [root, rest] = file.startsWith('src/')
    ? [files.src, file.slice(4)]
    : file.startsWith('e2e/')
      ? [files.e2e, file.slice(4)]
      : [files.srv, file];
  return { kind: 'applied', file: root + rest, title };
}

/**
 * Saved but not acted on. `form` is the console file that shows the field (it must render the
 * field's NotAppliedMark, or `mark` when the field is marked another way, as DRM vendors are); no
 * form: the console shows no control for it (the field is still listed in web lib/not-applied.ts).
 */
export function notApplied(reason: string, form?: string, mark?: string): Review {
  return { kind: 'not-applied', reason, form: form && `packages/web/src/features/${form}`, mark };
}

export const IN_PROGRESS = 'in progress (issue 23)';

/** The same rows for each section that shares a sub-entity (auth, meta, dvr…): `{s}` is the section. */
export const under = (base: string, rows: Record<string, Review>): Record<string, Review> =>
  Object.fromEntries(Object.entries(rows).map(([key, review]) => [`${base}.${key}`, review]));
