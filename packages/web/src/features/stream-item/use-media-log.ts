import { logEntryEvent } from '@sluice/api';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EventListener } from '../../api/live-sync.js';
import { useTopic } from '../../api/use-topic.js';
import { appendLines } from './log-lines.js';

/** Lines arriving within one frame are added together, so a backlog renders once. */
function useBatchedLines() {
  const [lines, setLines] = useState<string[]>([]);
  const queue = useRef<string[]>([]);
  const frame = useRef<number | undefined>(undefined);
  const push = useCallback((line: string) => {
    queue.current.push(line);
    frame.current ??= requestAnimationFrame(() => {
      frame.current = undefined;
      const added = queue.current;
      queue.current = [];
      setLines((old) => appendLines(old, added));
    });
  }, []);
  useEffect(() => () => cancelAnimationFrame(frame.current ?? 0), []);
  return { lines, push };
}

/** The stream's live log (log_media_start:{name}), subscribed once `active` and kept until unmount. */
export function useMediaLog(name: string, active: boolean): string[] {
  const { lines, push } = useBatchedLines();
  const onEvent = useCallback<EventListener>(
    (event) => {
      const parsed = logEntryEvent.safeParse(event);
      if (parsed.success && parsed.data.name === name) push(parsed.data.text);
    },
    [name, push],
  );
  const argument = encodeURIComponent(name);
  useTopic(`log_media_start:${argument}`, `log_media_stop:${argument}`, onEvent, active);
  return lines;
}
