import type { ImportSummary, ItemChanges } from '@sluice/api';

const SECTION_LABELS: Record<string, string> = {
  streams: 'Streams',
  lives: 'Locations',
  sources: 'Mirrors',
  vods: 'VOD',
  dvrs: 'DVR storages',
  auth_backends: 'Auth backends',
  peers: 'Peers',
  web_scripts: 'Web scripts',
  plugins: 'Plugins',
};
/** Names listed per kind of change; a large import lists the first ones and counts the rest. */
const NAMES_SHOWN = 8;

function names(list: readonly string[]): string {
  const shown = list.slice(0, NAMES_SHOWN).join(', ');
  return list.length > NAMES_SHOWN ? `${shown} and ${list.length - NAMES_SHOWN} more` : shown;
}

function line(label: string, c: ItemChanges): string | undefined {
  const parts = (
    [
      ['added', c.added],
      ['removed', c.removed],
      ['changed', c.changed],
    ] as const
  )
    .filter(([, list]) => list.length > 0)
    .map(([what, list]) => `${list.length} ${what} (${names(list)})`);
  return parts.length > 0 ? `${label}: ${parts.join(', ')}` : undefined;
}

/** One line per section with changes, settings last: "Streams: 2 added (a, b), 1 removed (c)". */
export function importSummaryLines(summary: ImportSummary): string[] {
  const sections = Object.entries(summary.sections).map(([key, c]) => line(SECTION_LABELS[key] ?? key, c));
  return [...sections, line('Settings', summary.settings)].filter((l): l is string => l !== undefined);
}
