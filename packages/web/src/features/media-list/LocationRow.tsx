import { Text } from '@mantine/core';
import { memo } from 'react';
import { useView } from '../../api/use-live.js';
import { ItemLink } from './ItemLink.js';
import { rowStyle } from './location-columns.js';
import { LocationDeleteButton } from './LocationDeleteButton.js';
import { type LiveLocation, locationRowView } from './location-rows.js';
import { PublishedRow } from './PublishedRow.js';
import { useOrderedKeys } from './use-location-names.js';

/** A location's row with its figures, then a row for each stream published into it. */
export const LocationRow = memo(function LocationRow(props: {
  prefix: string;
  selected: string | undefined;
  compact: boolean;
}) {
  const { prefix, compact } = props;
  const location = useView<LiveLocation>(['lives', prefix]);
  const published = useOrderedKeys(['lives', prefix, 'streams']);
  if (!location) return null;
  const view = locationRowView(location);
  return (
    <>
      <div role="row" aria-label={prefix} style={rowStyle(compact, props.selected === prefix)}>
        <div role="cell" style={{ overflow: 'hidden' }}>
          <ItemLink route="location-item" name={prefix}>
            {prefix}
          </ItemLink>
        </div>
        {!compact && (
          <>
            <Text role="cell" size="sm" ta="right">
              {view.clients}
            </Text>
            <Text role="cell" size="sm" ta="right">
              {view.bitrate}
            </Text>
            <Text role="cell" size="sm" ta="right" ff="monospace">
              {view.runtime}
            </Text>
            <Text role="cell" size="xs" truncate="end">
              {view.source}
            </Text>
          </>
        )}
        <div role="cell">
          <LocationDeleteButton prefix={prefix} hasDvr={Boolean(location.dvr)} />
        </div>
      </div>
      {published.map((name) => (
        <PublishedRow
          key={name}
          prefix={prefix}
          name={name}
          selected={props.selected === name}
          compact={compact}
        />
      ))}
    </>
  );
});
