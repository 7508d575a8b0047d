import { type DragEvent, type KeyboardEvent, memo } from 'react';
import { useView } from '../../api/use-live.js';
import { ItemLink } from './ItemLink.js';
import classes from './media-rows.module.css';
import { PlayButton } from './PlayButton.js';
import { StreamActions } from '../stream-actions/StreamActions.js';
import { columnsOf } from './stream-columns.js';
import type { NamedStream } from './stream-facts.js';
import { FigureCells, StatusBadge } from './RowCells.js';
import { type StreamRowView, streamRowView } from './stream-row-view.js';

interface Props {
  name: string;
  urlPublish: boolean;
  compact: boolean;
  selected: boolean;
  /** Set while drag reorder is allowed. */
  onDragStart?: (name: string, event: DragEvent) => void;
  /** Set while reorder is allowed: keys on the row's "Move" handle, and its instructions' id. */
  onMoveKeyDown?: (name: string, event: KeyboardEvent) => void;
  moveHelpId?: string;
}

/**
 * One stream of the list. It reads its own stream from the live store, so it re-renders when that
 * stream changed and for nothing else (memo keeps the table's renders out).
 */
export const StreamRow = memo(function StreamRow({
  name,
  urlPublish,
  compact,
  selected,
  onDragStart,
  onMoveKeyDown,
  moveHelpId,
}: Props) {
  const stream = useView<NamedStream>(['streams', name]);
  if (!stream) return null;
  const view = streamRowView(name, stream, urlPublish);
  return (
    <div
      role="row"
      aria-selected={selected}
      aria-label={name}
      draggable={onDragStart !== undefined}
      onDragStart={onDragStart && ((event) => onDragStart(name, event))}
      className={classes.row}
      style={{ gridTemplateColumns: columnsOf(compact) }}
    >
      <div role="cell" className={classes.cell}>
        {onMoveKeyDown && (
          <button
            type="button"
            className={classes.handle}
            aria-label={`Move ${name}`}
            aria-describedby={moveHelpId}
            data-move-handle={name}
            onKeyDown={(event) => onMoveKeyDown(name, event)}
          >
            <span aria-hidden="true">⠿</span>
          </button>
        )}
        <ItemLink route="stream-item" name={name}>
          {name}
        </ItemLink>
      </div>
      <div role="cell" className={classes.cell} title={view.status.detail || undefined}>
        <StatusBadge status={view.status} />
        {view.status.detail && <span className={classes.detail}>{view.status.detail}</span>}
      </div>
      {!compact && <StreamFigures view={view} />}
      <div role="cell" className={classes.actions}>
        <PlayButton name={name} />
        <StreamActions name={name} icons />
      </div>
    </div>
  );
});

function StreamFigures({ view }: { view: StreamRowView }) {
  return (
    <>
      <FigureCells view={view} />
      <div role="cell" className={`${classes.cell} ${classes.source}`}>
        <div title={view.source}>{view.source}</div>
        {view.error && (
          <div className={classes.error} title={view.error}>
            {view.error}
          </div>
        )}
      </div>
    </>
  );
}
