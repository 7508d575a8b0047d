import { useEffect, useMemo, useState } from 'react';
import { delayedFlag } from './delayed-flag.js';

/** True once `active` has held for `delayMs`; false at once when it ends. */
export function useDelayedFlag(active: boolean, delayMs: number): boolean {
  const [on, setOn] = useState(false);
  const flag = useMemo(() => delayedFlag(delayMs, setOn), [delayMs]);
  useEffect(() => {
    if (active) flag.start();
    else flag.stop();
  }, [active, flag]);
  useEffect(() => () => flag.stop(), [flag]);
  return on && active;
}
