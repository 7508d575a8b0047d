import { useCanEdit } from '../../api/access.js';
import type { Delta } from '../../api/edits.js';
import { useInstantSave } from '../stream-item/use-instant-save.js';
import classes from './mirror-rows.module.css';

/**
 * A button of a mirror's stream row that saves at once (ignore, restart as static or on demand).
 * It is disabled while its save runs and enabled again when the save fails (spec 000 §8), with the
 * server's message beside it. `change` is read at the click, from the lists as they are then.
 */
export function MirrorToggleButton({
  text,
  label,
  change,
}: {
  text: string;
  label: string;
  change: () => Delta;
}) {
  const { save, status, saving } = useInstantSave();
  if (!useCanEdit()) return null;
  return (
    <>
      {status.phase === 'failed' && (
        <span className={classes.failed} role="alert" title={status.message}>
          {status.message}
        </span>
      )}
      <button
        type="button"
        className={classes.textButton}
        aria-label={label}
        disabled={saving}
        onClick={() => void save(change())}
      >
        {text}
      </button>
    </>
  );
}
