import { memo } from 'react';
import { useLiveFile } from '../vod-file/live-file.js';
import { ItemLink } from './ItemLink.js';
import { locationColumnsOf } from './location-columns.js';
import { LocationFigures } from './LocationFigures.js';
import classes from './media-rows.module.css';
import { PlayButton } from './PlayButton.js';
import { fileRowView } from './vod-rows.js';

/** A file someone plays (the live view's `files[PREFIX/PATH]`), indented under its VOD. */
export const FileRow = memo(function FileRow(props: { name: string; selected: boolean; compact: boolean }) {
  const stats = useLiveFile(props.name)?.stats;
  return (
    <div
      role="row"
      aria-label={props.name}
      aria-selected={props.selected}
      className={classes.row}
      style={{ gridTemplateColumns: locationColumnsOf(props.compact) }}
    >
      <div role="cell" className={classes.cell} style={{ paddingLeft: 20 }}>
        <ItemLink route="file-item" name={props.name}>
          {props.name}
        </ItemLink>
      </div>
      {!props.compact && <LocationFigures view={fileRowView(stats, Date.now())} />}
      <div role="cell">
        <PlayButton name={props.name} />
      </div>
    </div>
  );
});
