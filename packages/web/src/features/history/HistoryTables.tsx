import { Table, UnstyledButton } from '@mantine/core';
import type { HistorySession, ReportRow } from '@sluice/api';
import { formatBytes, formatDuration } from '../clients/session-format.js';
import { type HistorySort, REPORT_COLUMNS, SESSION_COLUMNS } from './history-query.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** A session's start in the operator's local time, YYYY-MM-DD hh:mm:ss. */
export function formatTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

const ARROWS = { asc: '▲', desc: '▼' } as const;

function SortHeader({
  label,
  column,
  sort,
  onSort,
}: {
  label: string;
  column: string;
  sort: HistorySort | undefined;
  onSort: (column: string) => void;
}) {
  const dir = sort?.column === column ? sort.dir : undefined;
  return (
    <Table.Th aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}>
      <UnstyledButton onClick={() => onSort(column)} fw={600} fz="sm" aria-label={`sort by ${label}`}>
        {label} {dir ? ARROWS[dir] : '▲▼'}
      </UnstyledButton>
    </Table.Th>
  );
}

/** Spec 001 §2 History: the sessions with up/down sort arrows on every column. */
export function HistorySessionsTable({
  sessions,
  sort,
  onSort,
}: {
  sessions: HistorySession[];
  sort: HistorySort | undefined;
  onSort: (column: string) => void;
}) {
  return (
    <Table aria-label="history sessions" withTableBorder>
      <Table.Thead>
        <Table.Tr>
          {SESSION_COLUMNS.map(({ label, column }) => (
            <SortHeader key={column} label={label} column={column} sort={sort} onSort={onSort} />
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {sessions.map((s) => (
          <Table.Tr key={s.id} aria-label={`history session ${s.id}`}>
            <Table.Td>{s.type}</Table.Td>
            <Table.Td>{s.ip}</Table.Td>
            <Table.Td>{s.country}</Table.Td>
            <Table.Td>{formatTime(s.created_at)}</Table.Td>
            <Table.Td>{formatDuration(s.duration)}</Table.Td>
            <Table.Td>{formatBytes(s.bytes_sent)}</Table.Td>
            <Table.Td>{s.user_id ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Spec 001 §2 History report: one row per protocol and country. */
export function HistoryReportTable({ rows }: { rows: ReportRow[] }) {
  return (
    <Table aria-label="history report" withTableBorder>
      <Table.Thead>
        <Table.Tr>
          {REPORT_COLUMNS.map((label) => (
            <Table.Th key={label}>{label}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={`${r.type} ${r.country}`} aria-label={`report ${r.type} ${r.country}`}>
            <Table.Td>{r.type}</Table.Td>
            <Table.Td>{r.country}</Table.Td>
            <Table.Td>{formatDuration(r.avg_duration)}</Table.Td>
            <Table.Td>{formatDuration(r.total_duration)}</Table.Td>
            <Table.Td>{formatBytes(Math.round(r.avg_bytes))}</Table.Td>
            <Table.Td>{formatBytes(r.total_bytes)}</Table.Td>
            <Table.Td>{r.count}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
