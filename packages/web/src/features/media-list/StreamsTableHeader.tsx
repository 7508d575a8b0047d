import { Text, UnstyledButton } from '@mantine/core';
import type { SortKey, SortState } from '@sluice/api';
import { columnsOf } from './stream-columns.js';

type Sortable = Exclude<SortKey, 'position'>;
type Column = { label: string; sort?: Sortable; align?: 'right' };

const fullColumns: Column[] = [
  { label: 'Name', sort: 'name' },
  { label: 'Status' },
  { label: 'Clients', sort: 'clients', align: 'right' },
  { label: 'Bitrate', sort: 'bitrate', align: 'right' },
  { label: 'Runtime', sort: 'runtime', align: 'right' },
  { label: 'Source' },
  { label: '' },
];
const compactColumns: Column[] = [{ label: 'Name', sort: 'name' }, { label: 'Status' }, { label: '' }];

const ariaSort = (sort: SortState, key: Sortable | undefined) =>
  key && sort.key === key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none';

/** Column headers; a click on a sortable one cycles none → ascending → descending → config order. */
export function StreamsTableHeader(props: {
  sort: SortState;
  onSort: (key: Sortable) => void;
  compact: boolean;
}) {
  const columns = props.compact ? compactColumns : fullColumns;
  return (
    <div
      role="row"
      style={{
        display: 'grid',
        gridTemplateColumns: columnsOf(props.compact),
        columnGap: 8,
        padding: '6px 8px',
        alignItems: 'end',
        borderBottom: '2px solid var(--mantine-color-gray-3)',
      }}
    >
      {columns.map((column, i) => (
        <div
          key={column.label || i}
          role="columnheader"
          aria-sort={ariaSort(props.sort, column.sort)}
          style={{ textAlign: column.align }}
        >
          {column.sort ? (
            <UnstyledButton onClick={() => props.onSort(column.sort!)} fw={600} fz="sm">
              {column.label}
              {props.sort.key === column.sort ? (props.sort.direction === 'asc' ? ' ▲' : ' ▼') : ''}
            </UnstyledButton>
          ) : (
            <Text span fw={600} size="sm">
              {column.label}
            </Text>
          )}
        </div>
      ))}
    </div>
  );
}
