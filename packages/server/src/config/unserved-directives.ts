import type { Config } from '@sluice/api';

/**
 * Directives this server reads and keeps (a config written for another server stays loadable, and
 * is written back unchanged) but does not act on, each with the log line that says so at load and
 * when it is set. docs/config.md gives the reasons.
 */
export function unservedDirectiveNotes(config: Config, previous?: Config): string[] {
  const notes: string[] = [];
  // No maintained MySQL wire-protocol server library for Node would make this port honest: it would
  // need its own SQL layer over the stats; the console does not offer the field.
  if (config.mysql !== undefined && config.mysql !== previous?.mysql)
    notes.push(
      `mysql ${config.mysql}: not applied, this server has no MySQL-protocol API (the port stays closed)`,
    );
  return notes;
}
