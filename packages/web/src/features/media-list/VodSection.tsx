import { Stack, Text, Title } from '@mantine/core';
import { memo } from 'react';
import { locationColumnsOf } from './location-columns.js';
import classes from './media-rows.module.css';
import { useOrderedKeys } from './use-location-names.js';
import { VodRow } from './VodRow.js';

const headers = ['Name', 'Clients', 'Bitrate', 'Runtime', 'Paths', ''];

/**
 * The media list's files (spec 000 §2): each VOD location with its source paths, then the files of
 * it someone plays now. Shown once a VOD is configured.
 */
export const VodSection = memo(function VodSection({
  selected,
  compact,
}: {
  selected: string | undefined;
  compact: boolean;
}) {
  const prefixes = useOrderedKeys(['vods']);
  if (prefixes.length === 0) return null;
  const shown = compact ? [headers[0]!, ''] : headers;
  return (
    <Stack gap="sm">
      <Title order={2}>VOD locations</Title>
      <div role="table" aria-label="VOD locations">
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
          <VodRow key={prefix} prefix={prefix} selected={selected} compact={compact} />
        ))}
      </div>
    </Stack>
  );
});
