import { Anchor, Group, Stack, Text } from '@mantine/core';
import type { HistorySession, ReportRow } from '@sluice/api';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMediaName } from '../item-page/use-media-name.js';
import { HistoryGraph } from './HistoryGraph.js';
import { hasPulseData } from './pulse-data.js';
import { HistoryReportTable, HistorySessionsTable } from './HistoryTables.js';
import { type HistorySort, historyLinks, nextSort, readFlags, toggledSearch } from './history-query.js';
import { useHistory } from './use-history.js';

/** Sessions carry an id, report rows do not; while a new query loads, the previous answer may be of the other kind. */
const sessionsOf = (rows: readonly (HistorySession | ReportRow)[]) =>
  rows.filter((row): row is HistorySession => 'id' in row);
const reportOf = (rows: readonly (HistorySession | ReportRow)[]) =>
  rows.filter((row): row is ReportRow => !('id' in row));

/**
 * The History tab (spec 001 §2 History) of a stream or, with `location`, of the streams published
 * into a location: links that flip the URL's pulse, sessions and report flags, the 400 px pulse
 * graph when there is data, and the sessions or the report.
 */
export function HistoryTab({ location = false }: { location?: boolean }) {
  const name = useMediaName();
  const [params] = useSearchParams();
  const flags = readFlags(params);
  const [sort, setSort] = useState<HistorySort>();
  // A location's streams are asked for by prefix; the pulse is per stream, so a location has no graph.
  const target = useMemo(() => (location ? { prefix: name } : { name }), [location, name]);
  const history = useHistory(target, location ? { ...flags, pulse: false } : flags, sort);
  const rows = history.data?.sessions;
  const pulse = history.data?.pulse;

  return (
    <Stack gap="md" aria-label="history">
      <Group gap="lg">
        {historyLinks(flags).map((link) => (
          <Anchor key={link.key} component={Link} to={toggledSearch(params, link.key)} replace>
            {link.label}
          </Anchor>
        ))}
      </Group>
      {history.error && (
        <Text c="red" role="alert">
          {history.error.message}
        </Text>
      )}
      {history.isPending && <Text size="sm">Loading...</Text>}
      {flags.pulse && hasPulseData(pulse) && <HistoryGraph series={pulse} />}
      {flags.sessions &&
        rows &&
        (flags.report ? (
          <HistoryReportTable rows={reportOf(rows)} />
        ) : (
          <HistorySessionsTable
            sessions={sessionsOf(rows)}
            sort={sort}
            onSort={(column) => setSort((current) => nextSort(current, column))}
          />
        ))}
    </Stack>
  );
}
