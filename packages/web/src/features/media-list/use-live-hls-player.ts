import { useEffect, useState } from 'react';
import type HlsType from 'hls.js';
import type { HlsConfig } from 'hls.js';
import { useShownOnScreen } from './use-shown-on-screen.js';

/**
 * Where a live player stands (issue 17): from the live edge, near it (two 2 s segments behind),
 * catching up by playing faster when it drifts, and jumping forward when it falls far behind.
 */
const LIVE_CONFIG: Partial<HlsConfig> = {
  startPosition: -1,
  liveSyncDurationCount: 2,
  liveMaxLatencyDurationCount: 5,
  maxLiveSyncPlaybackRate: 1.5,
  backBufferLength: 10,
};

/** Retries after a failure: 1 s, doubled each time, at most 8 s apart. */
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 8000;
/** Playing but no frame shown for this long (a server restarted under a live playlist): start over. */
const STALL_MS = 12_000;
const STALL_CHECK_MS = 2000;

export const WAITING_TEXT = 'Waiting for the stream…';

/**
 * A live HLS player in `video` (Overview player, play modal), issue 17: it loads only while the
 * video is on screen and the page is shown (no downloads, no viewer session while out of view),
 * starts at the live edge each time it is shown, and after a failure (server gone, stream
 * restarted) builds itself again with backoff until the stream answers, saying it is waiting
 * rather than showing hls.js's error. Returns whether it is waiting for the stream.
 */
export function useLiveHlsPlayer(video: HTMLVideoElement | null, src: string): boolean {
  const shown = useShownOnScreen(video);
  const [waiting, setWaiting] = useState(false);
  useEffect(() => {
    if (!video || !shown) return;
    let stopped = false;
    let hls: HlsType | undefined;
    let retryMs = FIRST_RETRY_MS;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let lastTime = -1;
    let lastProgressAt = Date.now();

    const teardown = () => {
      hls?.destroy();
      hls = undefined;
      video.removeAttribute('src');
      video.load();
    };
    const retry = () => {
      if (stopped) return;
      setWaiting(true);
      teardown();
      clearTimeout(retryTimer);
      retryTimer = setTimeout(start, retryMs);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    };
    const start = () => {
      void import('hls.js').then(({ default: Hls }) => {
        if (stopped) return;
        lastProgressAt = Date.now();
        if (!Hls.isSupported()) {
          video.src = src;
          void video.play().catch(() => undefined);
          return;
        }
        const player = new Hls(LIVE_CONFIG);
        hls = player;
        player.on(Hls.Events.ERROR, (_event, data) => {
          if (data.fatal && hls === player) retry();
        });
        player.on(Hls.Events.MANIFEST_PARSED, () => {
          void video.play().catch(() => undefined);
        });
        player.loadSource(src);
        player.attachMedia(video);
      });
    };
    const onProgress = () => {
      if (video.currentTime === lastTime) return;
      lastTime = video.currentTime;
      lastProgressAt = Date.now();
      retryMs = FIRST_RETRY_MS;
      setWaiting(false);
    };
    // A player the operator paused is left alone; one that plays but shows nothing is stuck.
    const watchdog = setInterval(() => {
      if (!video.paused && hls && Date.now() - lastProgressAt > STALL_MS) retry();
    }, STALL_CHECK_MS);
    video.addEventListener('timeupdate', onProgress);
    start();
    return () => {
      stopped = true;
      clearTimeout(retryTimer);
      clearInterval(watchdog);
      video.removeEventListener('timeupdate', onProgress);
      teardown();
      setWaiting(false);
    };
  }, [video, src, shown]);
  return waiting;
}
