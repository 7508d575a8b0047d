import { z } from 'zod';

/** Items of one section (or top-level settings) an import would add, remove or change, by name. */
export const itemChanges = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(z.string()),
});
export type ItemChanges = z.infer<typeof itemChanges>;

/**
 * What Upload config would change (preview_config_import): per section (streams, lives, …), the
 * items added, removed and changed; `settings` holds the top-level keys (http, edit_auth, …).
 * Mirrors have no name: each is named by its first URL. Only names: no values, so no secrets.
 */
export const importSummary = z.object({
  sections: z.record(z.string(), itemChanges),
  settings: itemChanges,
});
export type ImportSummary = z.infer<typeof importSummary>;

/** Whether the summary holds no change at all. */
export const summaryIsEmpty = (summary: ImportSummary): boolean =>
  [summary.settings, ...Object.values(summary.sections)].every(
    (c) => c.added.length + c.removed.length + c.changed.length === 0,
  );
