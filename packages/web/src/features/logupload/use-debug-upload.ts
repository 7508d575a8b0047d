import { useEffect, useRef, useState } from 'react';
import {
  type SendResult,
  UPLOAD_TICK_MS,
  UPLOAD_WINDOW_MS,
  downloadBundle,
  sendLogs,
} from './support-api.js';

export interface DebugUpload {
  running: boolean;
  /** 0–100: fills over the 30 s window, full once answered (spec 002 §4). */
  progress: number;
  /** Past the window with no answer yet. */
  late: boolean;
  result?: SendResult;
  send: (comment: string) => Promise<void>;
}

/**
 * The debug upload's states (spec 002 §4): idle, progress ticking each second over 30 s, then the
 * ticket, a download (no support_url), or a failure with the bundle kept for download.
 */
export function useDebugUpload(): DebugUpload {
  const [running, setRunning] = useState(false);
  const [elapsedMs, setElapsedMs] = useState(0);
  const [result, setResult] = useState<SendResult>();
  const timer = useRef<ReturnType<typeof setInterval>>(undefined);
  useEffect(() => () => clearInterval(timer.current), []);

  const send = async (comment: string) => {
    setRunning(true);
    setResult(undefined);
    setElapsedMs(0);
    const startedAt = Date.now();
    clearInterval(timer.current);
    timer.current = setInterval(() => setElapsedMs(Date.now() - startedAt), UPLOAD_TICK_MS);
    const outcome = await sendLogs(comment);
    clearInterval(timer.current);
    setRunning(false);
    setResult(outcome);
    if (outcome.kind === 'download') await downloadBundle(outcome.download).catch(() => undefined);
  };

  const progress =
    result?.kind === 'ticket' || result?.kind === 'download'
      ? 100
      : Math.min(100, (elapsedMs / UPLOAD_WINDOW_MS) * 100);
  return { running, progress, late: running && elapsedMs >= UPLOAD_WINDOW_MS, result, send };
}
