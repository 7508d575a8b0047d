import { Text } from '@mantine/core';
import type { StreamStats } from '@sluice/api';
import { memo } from 'react';
import { useView } from '../../api/use-live.js';
import { ItemLink } from './ItemLink.js';
import { rowStyle } from './location-columns.js';
import { publishedRowView } from './location-rows.js';
import { PlayButton } from './PlayButton.js';

/** A stream published into a location (lives[PREFIX].streams[NAME]), indented under it. */
export const PublishedRow = memo(function PublishedRow(props: {
  prefix: string;
  name: string;
  selected: boolean;
  compact: boolean;
}) {
  const stats = useView<StreamStats>(['lives', props.prefix, 'streams', props.name, 'stats']);
  const view = publishedRowView(stats);
  return (
    <div role="row" aria-label={props.name} style={rowStyle(props.compact, props.selected)}>
      <div role="cell" style={{ overflow: 'hidden', paddingLeft: 20 }}>
        <ItemLink route="published-item" name={props.name}>
          {props.name}
        </ItemLink>
      </div>
      {!props.compact && (
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
        <PlayButton name={props.name} />
      </div>
    </div>
  );
});
