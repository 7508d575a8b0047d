import { memo } from 'react';
import { restartOnDemandChange, restartStaticChange } from '../mirror/mirror-modes.js';
import { useMirrorReader } from '../mirror/use-mirror.js';
import { mirroredColumnsOf } from './mirror-columns.js';
import mirrorClasses from './mirror-rows.module.css';
import classes from './media-rows.module.css';
import { MirrorToggleButton } from './MirrorToggleButton.js';

/**
 * A stream the mirror ignores (a name in its except list), with the two ways back of spec 000 §4:
 * restart as static or on demand.
 */
export const IgnoredRow = memo(function IgnoredRow(props: {
  position: string;
  name: string;
  /** The mirror's streams now (all static while the mirror has no only list). */
  streamNames: readonly string[];
  compact: boolean;
}) {
  const { position, name, compact } = props;
  const readMirror = useMirrorReader(position);
  return (
    <div
      role="row"
      aria-label={name}
      className={classes.row}
      style={{ gridTemplateColumns: mirroredColumnsOf(compact) }}
    >
      <div role="cell" className={classes.cell} style={{ paddingLeft: 20 }}>
        {name}
      </div>
      {!compact && (
        <>
          <div role="cell" className={classes.cell}>
            <span
              className={classes.badge}
              style={{
                background: 'var(--mantine-color-gray-light)',
                color: 'var(--mantine-color-gray-light-color)',
              }}
            >
              ignored
            </span>
          </div>
          <div role="cell" />
          <div role="cell" />
          <div role="cell" />
        </>
      )}
      <div role="cell" className={mirrorClasses.actions}>
        <MirrorToggleButton
          text="static"
          label={`Restart ${name} as static`}
          change={() => ({ sources: { [position]: restartStaticChange(readMirror(), name) } })}
        />
        <MirrorToggleButton
          text="on demand"
          label={`Restart ${name} on demand`}
          change={() => ({
            sources: { [position]: restartOnDemandChange(readMirror(), name, props.streamNames) },
          })}
        />
      </div>
    </div>
  );
});
