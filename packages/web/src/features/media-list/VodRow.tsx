import type { Vod } from '@sluice/api';
import { memo } from 'react';
import { useView } from '../../api/use-live.js';
import { FileRow } from './FileRow.js';
import { ItemLink } from './ItemLink.js';
import { locationColumnsOf } from './location-columns.js';
import { LocationFigures } from './LocationFigures.js';
import classes from './media-rows.module.css';
import { useOpenedFiles, useVodFigures } from './use-vod-files.js';
import { vodRowView } from './vod-rows.js';

/** A VOD location's row (name, clients, bitrate, paths), then a row for each of its opened files. */
export const VodRow = memo(function VodRow(props: {
  prefix: string;
  selected: string | undefined;
  compact: boolean;
}) {
  const { prefix, compact } = props;
  const vod = useView<Vod>(['vods', prefix]);
  const figures = useVodFigures(prefix);
  const files = useOpenedFiles(prefix);
  if (!vod) return null;
  return (
    <>
      <div
        role="row"
        aria-label={prefix}
        aria-selected={props.selected === prefix}
        className={classes.row}
        style={{ gridTemplateColumns: locationColumnsOf(compact) }}
      >
        <div role="cell" className={classes.cell}>
          <ItemLink route="vod-item" name={prefix}>
            {prefix}
          </ItemLink>
          {vod.disabled === true && <span className={classes.detail}>disabled</span>}
        </div>
        {!compact && <LocationFigures view={vodRowView(vod, figures)} />}
        <div role="cell" />
      </div>
      {files.map((name) => (
        <FileRow key={name} name={name} selected={props.selected === name} compact={compact} />
      ))}
    </>
  );
});
