import { type DragEvent, useCallback, useMemo, useState } from 'react';
import { modifyConfig } from '../../api/config-calls.js';
import { useLiveSync } from '../../api/live-context.js';
import { dropPosition, PLACEHOLDER, withPlaceholder } from './drop-position.js';

interface DragState {
  name: string;
  /** Where the placeholder stands; undefined: where the stream was. */
  slot: number | undefined;
  /** Dropped: the stream shows at its slot until the server's order confirms it. */
  saving: boolean;
  /** Picked up with the keyboard: the arrow keys move the placeholder, not the pointer. */
  keyboard: boolean;
}

/**
 * Drag reorder of the stream list (spec 000 §2): only when `enabled` (no selection, config
 * order), with the pointer or with the keyboard (pickUp, then `over` a slot, drop or end). The dropped stream's new position is saved through modify_config; the server shifts
 * the others. `run` is the page's save runner, which shows progress and failures.
 */
export function useStreamDrag(
  names: readonly string[],
  enabled: boolean,
  run: (task: () => Promise<void>) => Promise<boolean>,
) {
  const sync = useLiveSync();
  const [drag, setDrag] = useState<DragState>();

  const display = useMemo(() => {
    if (!drag) return names;
    const slot = drag.slot ?? names.indexOf(drag.name);
    return withPlaceholder(names, drag.name, slot, drag.saving ? drag.name : PLACEHOLDER);
  }, [names, drag]);

  // Stable, so that the rows it is handed to keep their memo.
  const start = useCallback((name: string, event: DragEvent) => {
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', name);
    // Taken out of the list on the next frame: doing it now would cancel the drag in Chromium.
    requestAnimationFrame(() => setDrag({ name, slot: undefined, saving: false, keyboard: false }));
  }, []);

  /** The keyboard's pick-up: the placeholder takes the stream's place until moved. */
  const pickUp = useCallback(
    (name: string) => {
      const slot = names.indexOf(name);
      if (enabled && slot >= 0) setDrag({ name, slot, saving: false, keyboard: true });
    },
    [names, enabled],
  );

  const over = useCallback((slot: number) => {
    setDrag((d) => (d && !d.saving && d.slot !== slot ? { ...d, slot } : d));
  }, []);

  const positionOf = useCallback(
    (name: string | undefined) =>
      name === undefined
        ? undefined
        : (sync.store.viewAt(sync.store.getState(), ['streams', name, 'position']) as number | undefined),
    [sync],
  );

  const drop = useCallback(async () => {
    const d = drag;
    if (!d || d.saving) return;
    const at = display.indexOf(PLACEHOLDER);
    const moved = positionOf(d.name);
    const position =
      moved === undefined
        ? undefined
        : dropPosition(moved, positionOf(display[at - 1]), positionOf(display[at + 1]));
    if (position === undefined || position === moved) return setDrag(undefined);
    setDrag({ ...d, saving: true });
    const delta = { streams: { [d.name]: { position } } };
    await run(async () => {
      await modifyConfig(delta);
      await sync.confirmSaved(delta);
    });
    setDrag(undefined);
  }, [drag, display, positionOf, run, sync]);

  /** The drag ended without a drop here (or after one): nothing left to show unless a save runs. */
  const end = useCallback(() => setDrag((d) => (d?.saving ? d : undefined)), []);

  const active = enabled && drag !== undefined;
  const keyboard = active && drag.keyboard && !drag.saving;
  // One object while nothing changes, so the table's memo holds through the page's renders.
  return useMemo(
    () => ({ display, dragged: drag?.name, active, keyboard, start, pickUp, over, drop, end }),
    [display, drag?.name, active, keyboard, start, pickUp, over, drop, end],
  );
}
