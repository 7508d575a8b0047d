import type { MirroredStream } from '@sluice/api';
import { memo } from 'react';
import { useView } from '../../api/use-live.js';
import { ignoreChange } from '../mirror/mirror-modes.js';
import { useMirrorReader } from '../mirror/use-mirror.js';
import { ItemLink } from './ItemLink.js';
import { mirroredColumnsOf } from './mirror-columns.js';
import mirrorClasses from './mirror-rows.module.css';
import { mirroredRowView } from './mirrored-row-view.js';
import classes from './media-rows.module.css';
import { MirrorToggleButton } from './MirrorToggleButton.js';
import { PlayButton } from './PlayButton.js';
import { FigureCells, StatusBadge } from './RowCells.js';

/**
 * A stream mirrored from an origin (sources[POS].streams[NAME]), under its mirror. It reads only
 * its own stream from the live store; on-demand streams are left out while the mirror hides them.
 */
export const MirroredRow = memo(function MirroredRow(props: {
  position: string;
  name: string;
  /** The mirror's urls (same array while unchanged), the stream's sources before it has an active one. */
  urls: readonly string[];
  hideOnDemand: boolean;
  selected: boolean;
  compact: boolean;
}) {
  const { position, name, compact } = props;
  const stream = useView<MirroredStream>(['sources', position, 'streams', name]);
  const readMirror = useMirrorReader(position);
  if (!stream || (props.hideOnDemand && !stream.static)) return null;
  const view = mirroredRowView(stream, props.urls);
  return (
    <div
      role="row"
      aria-label={name}
      aria-selected={props.selected}
      className={classes.row}
      style={{ gridTemplateColumns: mirroredColumnsOf(compact) }}
    >
      <div role="cell" className={classes.cell} style={{ paddingLeft: 20 }}>
        <ItemLink route="mirrored-item" name={name}>
          {name}
        </ItemLink>
      </div>
      {!compact && (
        <>
          <div role="cell" className={classes.cell} title={view.error || view.status.detail || undefined}>
            <StatusBadge status={view.status} />
            {view.error && <span className={`${classes.detail} ${classes.error}`}>{view.error}</span>}
          </div>
          <FigureCells view={view} />
        </>
      )}
      <div role="cell" className={mirrorClasses.actions}>
        <MirrorToggleButton
          text="ignore"
          label={`Ignore ${name}`}
          change={() => ({ sources: { [position]: ignoreChange(readMirror(), name) } })}
        />
        <PlayButton name={name} />
      </div>
    </div>
  );
});
