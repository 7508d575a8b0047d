import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/** Where the embed page loads hls.js from (served by the route table from the hls.js package). */
export const HLS_SCRIPT_PATH = '/embed/hls.min.js';

/** hls.js as the package ships it, read once. */
export function loadHlsScript(): Promise<Buffer> {
  return readFile(createRequire(import.meta.url).resolve('hls.js/dist/hls.min.js'));
}

const htmlEscape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The player page of spec 001 §7 (GET /{name}/embed.html?version=3&autoplay&token=…), meant for
 * the 640x480 iframe of the embed code: the stream's HLS in a <video> through hls.js (Media Source
 * Extensions), else natively (iOS Safari). hls.js comes first: some Chromium builds claim native HLS
 * and then fail to parse it. `autoplay` starts muted, as browsers allow only that.
 */
export function embedPage(name: string, query: URLSearchParams): string {
  const token = query.get('token');
  const autoplay = query.has('autoplay') && !['false', '0'].includes(query.get('autoplay') ?? '');
  const source = `index.m3u8${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  // JSON in a script: "</" must not close the element early.
  const json = JSON.stringify(source).replace(/</g, '\\u003c');
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${htmlEscape(name)}</title>
<style>html,body{margin:0;height:100%;background:#000}video{display:block;width:100%;height:100%}</style>
</head>
<body>
<video id="player" controls playsinline${autoplay ? ' autoplay muted' : ''}></video>
<script src="${HLS_SCRIPT_PATH}"></script>
<script>
const source = ${json};
const video = document.getElementById('player');
if (window.Hls && Hls.isSupported()) {
  const hls = new Hls({ liveSyncDurationCount: 3 });
  hls.loadSource(source);
  hls.attachMedia(video);
} else if (video.canPlayType('application/vnd.apple.mpegurl')) video.src = source;
</script>
</body>
</html>
`;
}
