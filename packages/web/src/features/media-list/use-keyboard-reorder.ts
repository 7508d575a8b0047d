import {
  type FocusEvent,
  type KeyboardEvent,
  type RefObject,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';
import { PLACEHOLDER } from './drop-position.js';
import type { useStreamDrag } from './use-stream-drag.js';

type Drag = ReturnType<typeof useStreamDrag>;

/** The keys that pick a stream up and drop it, as on any button. */
const isPressKey = (key: string) => key === ' ' || key === 'Enter';

/**
 * Keyboard reordering of the stream list, the drag's keyboard twin (issue 17; WCAG 2.1.1: what a
 * pointer does, a keyboard does). Space or Enter on a row's "Move" handle picks the stream up and
 * focus goes to the list, a parent that never moves while the rows do; there the arrow keys move
 * the "Drop stream here" placeholder, Space or Enter drops (saved as a drop is), Escape or leaving
 * the list puts it back. Each step is told to screen readers through `announcement`.
 */
export function useKeyboardReorder(
  drag: Drag,
  list: RefObject<HTMLElement | null>,
  scrollTo: (index: number) => void,
) {
  const [announcement, setAnnouncement] = useState('');
  // The handle to focus again once the stream is back in the list (after a drop or a cancel).
  const refocus = useRef<string>(undefined);
  const count = drag.display.length;

  const onHandleKeyDown = useCallback(
    (name: string, event: KeyboardEvent) => {
      if (!isPressKey(event.key)) return;
      event.preventDefault();
      event.stopPropagation();
      const at = drag.display.indexOf(name);
      list.current?.focus();
      drag.pickUp(name);
      setAnnouncement(
        `${name} picked up, position ${at + 1} of ${count}. ` +
          'Arrow keys move it, Space or Enter drops it, Escape cancels.',
      );
    },
    [drag, list, count],
  );

  const cancel = useCallback(() => {
    if (!drag.keyboard || drag.dragged === undefined) return;
    refocus.current = drag.dragged;
    drag.end();
    setAnnouncement(`Move cancelled, ${drag.dragged} is back in its place.`);
  }, [drag]);

  const onListKeyDown = useCallback(
    (event: KeyboardEvent) => {
      const name = drag.dragged;
      if (!drag.keyboard || name === undefined) return;
      const slot = drag.display.indexOf(PLACEHOLDER);
      if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
        event.preventDefault();
        const next = Math.min(Math.max(0, slot + (event.key === 'ArrowUp' ? -1 : 1)), count - 1);
        drag.over(next);
        scrollTo(next);
        setAnnouncement(`${name}, position ${next + 1} of ${count}.`);
      } else if (isPressKey(event.key)) {
        event.preventDefault();
        refocus.current = name;
        setAnnouncement(`${name} dropped at position ${slot + 1} of ${count}.`);
        void drag.drop();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        cancel();
      }
    },
    [drag, count, scrollTo, cancel],
  );

  /** Focus moved elsewhere (Tab, a click on a control): the stream goes back to its place. */
  const onListBlur = useCallback(
    (event: FocusEvent) => {
      if (event.relatedTarget !== null && !list.current?.contains(event.relatedTarget)) cancel();
    },
    [list, cancel],
  );

  useEffect(() => {
    const name = refocus.current;
    if (name === undefined) return;
    const handle = list.current?.querySelector<HTMLElement>(`[data-move-handle="${CSS.escape(name)}"]`);
    if (!handle) return;
    handle.focus();
    refocus.current = undefined;
  });

  return { announcement, onHandleKeyDown, onListKeyDown, onListBlur };
}
