import { usePlay } from './play-context.js';
import classes from './media-rows.module.css';

/** Opens the play modal for a stream or a published stream. */
export function PlayButton({ name }: { name: string }) {
  const play = usePlay();
  return (
    <button
      type="button"
      className={classes.iconButton}
      aria-label={`Play ${name}`}
      title="Play"
      onClick={() => play(name)}
    >
      <svg viewBox="0 0 16 16" width={14} height={14} aria-hidden="true">
        <path d="M4 2.5v11l9-5.5z" fill="currentColor" />
      </svg>
    </button>
  );
}
