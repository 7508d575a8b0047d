import { Text } from '@mantine/core';
import { locationColumnsOf } from './location-columns.js';
import classes from './media-rows.module.css';
import { LocationRow } from './LocationRow.js';
import { useOrderedKeys } from './use-location-names.js';

const headers = ['Name', 'Clients', 'Bitrate', 'Runtime', 'Source', ''];

/** Each location, then the streams published into it. */
export function LocationsTable({ selected, compact }: { selected: string | undefined; compact: boolean }) {
  const prefixes = useOrderedKeys(['lives']);
  const shown = compact ? [headers[0]!, ''] : headers;
  return (
    <div role="table" aria-label="Publishing locations">
      <div
        role="row"
        className={classes.row}
        style={{
          gridTemplateColumns: locationColumnsOf(compact),
          borderBottom: '2px solid var(--mantine-color-gray-3)',
        }}
      >
        {shown.map((label, i) => (
          <Text
            key={label || i}
            role="columnheader"
            fw={600}
            size="sm"
            ta={i > 0 && i < 4 ? 'right' : undefined}
          >
            {label}
          </Text>
        ))}
      </div>
      {prefixes.map((prefix) => (
        <LocationRow key={prefix} prefix={prefix} selected={selected} compact={compact} />
      ))}
    </div>
  );
}
