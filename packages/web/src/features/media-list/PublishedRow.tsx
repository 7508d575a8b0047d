import type { StreamStats } from '@sluice/api';
import { memo } from 'react';
import { useView } from '../../api/use-live.js';
import { ItemLink } from './ItemLink.js';
import { locationColumnsOf } from './location-columns.js';
import { LocationFigures } from './LocationFigures.js';
import { publishedRowView } from './location-rows.js';
import classes from './media-rows.module.css';
import { PlayButton } from './PlayButton.js';

/** A stream published into a location (lives[PREFIX].streams[NAME]), indented under it. */
export const PublishedRow = memo(function PublishedRow(props: {
  prefix: string;
  name: string;
  selected: boolean;
  compact: boolean;
}) {
  const stats = useView<StreamStats>(['lives', props.prefix, 'streams', props.name, 'stats']);
  return (
    <div
      role="row"
      aria-label={props.name}
      aria-selected={props.selected}
      className={classes.row}
      style={{ gridTemplateColumns: locationColumnsOf(props.compact) }}
    >
      <div role="cell" className={classes.cell} style={{ paddingLeft: 20 }}>
        <ItemLink route="published-item" name={props.name}>
          {props.name}
        </ItemLink>
      </div>
      {!props.compact && <LocationFigures view={publishedRowView(stats)} />}
      <div role="cell">
        <PlayButton name={props.name} />
      </div>
    </div>
  );
});
