import type { Ports } from '@sluice/api';
import { useGlobal } from '../../../api/use-live.js';

/** The console's origin and the server's RTMP/RTSP ports, for the URLs shown. */
export function useOutputPorts(): Ports & { host: string } {
  const rtmp = useGlobal('rtmp');
  const rtsp = useGlobal('rtsp');
  return { http: window.location.origin, host: window.location.hostname, rtmp, rtsp };
}
