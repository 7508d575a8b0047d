import { useEffect, useState } from 'react';

/**
 * Plays the HLS playlist `src` in `video`: through hls.js where the browser has Media Source
 * Extensions, natively otherwise (Safari). hls.js is loaded on first use, keeping it out of the
 * console's first load. Returns the text of a fatal playback error, if one happened.
 */
export function useHlsPlayer(video: HTMLVideoElement | null, src: string): string | undefined {
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!video) return;
    let stopped = false;
    let destroy = () => undefined as void;
    void import('hls.js').then(({ default: Hls }) => {
      if (stopped) return;
      if (!Hls.isSupported()) {
        video.src = src;
        destroy = () => video.removeAttribute('src');
        return;
      }
      const hls = new Hls();
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (data.fatal) setError(`Playback failed: ${data.details}`);
      });
      hls.loadSource(src);
      hls.attachMedia(video);
      destroy = () => hls.destroy();
    });
    return () => {
      stopped = true;
      destroy();
      setError(undefined);
    };
  }, [video, src]);
  return error;
}
