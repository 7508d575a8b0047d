/**
 * The URLs a stream is played and published at (spec 001 §9, spec 000 §9, docs/media.md).
 * `host` is the console's host name without a port.
 */
export interface Ports {
  http: string;
  rtmp?: number | undefined;
  rtsp?: number | undefined;
}

const encodedName = (name: string) => name.split('/').map(encodeURIComponent).join('/');

/**
 * The RTMP path of a stream (spec 001 §9, docs/media.md): `static/NAME` when the name has no slash,
 * the name itself otherwise. The server reads rtmp://HOST/APP/NAME as the stream NAME when APP is
 * `static` and APP/NAME otherwise, so `static/live/a` would ask for a stream `static/live/a`.
 */
export function rtmpPath(name: string): string {
  return name.includes('/') ? encodedName(name) : `static/${encodedName(name)}`;
}

/**
 * The RTSP path of a stream (spec 001 §9: RTSP host/name): the name itself; the server reads a
 * one-part path as that stream (rtsp://HOST/NAME, the same as /static/NAME) and APP/NAME as the
 * stream APP/NAME, as for RTMP (docs/media.md).
 */
export const rtspPath = (name: string): string => encodedName(name);

/** Playback URLs by protocol; RTMP and RTSP are missing while their port is not configured. */
export function playbackUrls(
  name: string,
  host: string,
  ports: Ports,
  stream: { encrypted?: boolean } = {},
): Record<string, string[]> {
  const path = `${ports.http}/${encodedName(name)}`;
  // fMP4 HLS and LL-HLS (docs/media.md) are HLS too; a drm aes128 stream serves TS HLS only.
  const cmaf = stream.encrypted ? [] : [`${path}/index.fmp4.m3u8`, `${path}/index.ll.m3u8`];
  const urls: Record<string, string[]> = {
    hls: [`${path}/index.m3u8`, `${path}/video.m3u8`, ...cmaf],
    mss: [`${ports.http}/${encodedName(name)}.isml/manifest`],
    hds: [`${path}/manifest.f4m`],
    mpegts: [`${path}/mpegts`],
    dash: [`${path}/index.mpd`],
  };
  if (ports.rtmp) urls.rtmp = [`rtmp://${host}:${ports.rtmp}/${rtmpPath(name)}`];
  if (ports.rtsp) urls.rtsp = [`rtsp://${host}:${ports.rtsp}/${rtspPath(name)}`];
  return urls;
}

/**
 * Where to publish into a stream (spec 001 §9): RTMP host, prefix, name, with the default prefix
 * 'static' when the name has no slash and the stream no prefix; RTSP host/name (the prefix before
 * the name too, when the stream has one); '?password=' appended when a password is set. RTMP and
 * RTSP with their ports, HTTP(S) MPEG-TS, and WebRTC (the webcam block).
 */
export function publishUrls(
  name: string,
  stream: { prefix?: string | undefined; password?: string | undefined },
  host: string,
  ports: Ports,
): { label: string; url: string }[] {
  const query = stream.password ? `?password=${encodeURIComponent(stream.password)}` : '';
  // A prefix is the RTMP app the stream is published under (engine/publish-route.ts takes it).
  const path =
    stream.prefix && !name.includes('/') ? `${stream.prefix}/${encodedName(name)}` : rtmpPath(name);
  const urls: { label: string; url: string }[] = [];
  if (ports.rtmp) urls.push({ label: 'RTMP', url: `rtmp://${host}:${ports.rtmp}/${path}${query}` });
  if (ports.rtsp) {
    const rtsp = stream.prefix && !name.includes('/') ? path : rtspPath(name);
    urls.push({ label: 'RTSP', url: `rtsp://${host}:${ports.rtsp}/${rtsp}${query}` });
  }
  // HTTP(S) MPEG-TS: PUT or POST the TS as the request body (issue 18, docs/media.md), on the console's own origin.
  const scheme = ports.http.startsWith('https:') ? 'HTTPS' : 'HTTP';
  urls.push({ label: `${scheme} MPEG-TS`, url: `${ports.http}/${encodedName(name)}/mpegts${query}` });
  return urls;
}

/** One output link of a VOD file; `protocol` is its protocol switch, if it has one. */
export interface FileOutputUrl {
  label: string;
  protocol?: string;
  url: string;
}

/**
 * Where a VOD file (`PREFIX/PATH`) plays (issue 16, docs/vod.md): HLS, DASH and MPEG-TS under the
 * file's path, the file itself as MP4 (progressive, with Range) and a frame as preview.jpg.
 */
export function fileOutputUrls(name: string, http: string): FileOutputUrl[] {
  const path = `${http}/${encodedName(name)}`;
  return [
    { label: 'HLS', protocol: 'hls', url: `${path}/index.m3u8` },
    { label: 'DASH', protocol: 'dash', url: `${path}/index.mpd` },
    { label: 'MPEG-TS', protocol: 'mpegts', url: `${path}/mpegts` },
    { label: 'MP4', url: path },
    { label: 'Preview', url: `${path}/preview.jpg` },
  ];
}
