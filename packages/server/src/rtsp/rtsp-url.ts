/** What an RTSP request URL names: rtsp://HOST:PORT/APP/NAME[/trackID=N][?query]. */
export interface RtspTarget {
  /** First path segment, as RTMP's app: `static` for a stream named without a slash. */
  app: string;
  /** The rest of the path (without a track control). */
  name: string;
  /** The stream: NAME under `static`, APP/NAME otherwise (as RTMP reads its URLs). */
  stream: string;
  /** The track a SETUP names (trackID=N or streamid=N), if any. */
  track: number | undefined;
  query: Record<string, string>;
}

const TRACK = /^(?:trackID|streamid|stream|track)=(\d{1,3})$/;

/**
 * Reads a request URL (absolute, or `*` for OPTIONS). A track control may follow the path or, as
 * some clients join it to a base that had a query, the query (`?password=x/streamid=0`).
 */
export function parseRtspUrl(uri: string): RtspTarget | undefined {
  const match = /^rtsps?:\/\/[^/?#]*(\/[^?#]*)?(?:\?([^#]*))?$/i.exec(uri);
  if (!match) return undefined;
  let path = match[1] ?? '/';
  let queryText = match[2] ?? '';
  let track: number | undefined;
  const slash = queryText.lastIndexOf('/');
  if (slash >= 0) {
    const control = TRACK.exec(queryText.slice(slash + 1));
    if (control) {
      track = Number(control[1]);
      queryText = queryText.slice(0, slash);
    }
  }
  let segments: string[];
  try {
    segments = path
      .split('/')
      .filter((s) => s.length > 0)
      .map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
  const last = segments.length > 0 ? TRACK.exec(segments[segments.length - 1]!) : null;
  if (last) {
    track = Number(last[1]);
    segments.pop();
  }
  if (segments.length < 1 || segments.some((s) => s === '.' || s === '..' || s.includes('\0')))
    return undefined;
  // rtsp://HOST/NAME, spec 001 §9's RTSP shape (the Output tab shows it): NAME under `static`.
  if (segments.length === 1) segments.unshift('static');
  path = segments.join('/');
  const app = segments[0]!;
  const name = segments.slice(1).join('/');
  return {
    app,
    name,
    stream: app === 'static' ? name : path,
    track,
    query: readQuery(queryText),
  };
}

function readQuery(text: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text)) query[key] = value;
  return query;
}

/** The URL without its query and track control: the Content-Base a DESCRIBE answers with. */
export function baseUrl(uri: string): string {
  const bare = uri.replace(/[?#].*$/, '').replace(/\/(?:trackID|streamid|stream|track)=\d+$/, '');
  return bare.endsWith('/') ? bare : `${bare}/`;
}

/** One transport a SETUP offers (RFC 2326 §12.39), reduced to what this server serves. */
export type RtspTransport =
  { lower: 'tcp'; channels: [number, number] } | { lower: 'udp'; clientPorts: [number, number] };

/**
 * The first offered transport this server serves: unicast RTP/AVP over TCP (interleaved) or UDP
 * (client_port pair; not when `udp` is false, as over RTSPS, whose RTP must stay inside the TLS
 * connection). `undefined`: none of them (answered 461).
 */
export function chooseTransport(header: string | undefined, udp = true): RtspTransport | undefined {
  if (!header || header.length > 1024) return undefined;
  for (const spec of header.split(',')) {
    const [profile, ...params] = spec.trim().split(';');
    const kind = profile?.toUpperCase();
    const values = new Map(params.map((p) => [p.split('=')[0]!.trim().toLowerCase(), p.split('=')[1] ?? '']));
    if (values.has('multicast')) continue;
    if (kind === 'RTP/AVP/TCP') {
      const channels = pair(values.get('interleaved')) ?? [0, 1];
      if (channels[0] > 253 || channels[1] > 254) continue;
      return { lower: 'tcp', channels };
    }
    if (udp && (kind === 'RTP/AVP' || kind === 'RTP/AVP/UDP')) {
      const ports = pair(values.get('client_port'));
      if (ports && ports[0] > 0 && ports[1] < 65536) return { lower: 'udp', clientPorts: ports };
    }
  }
  return undefined;
}

/** "a-b" or "a" (then b = a + 1). */
function pair(text: string | undefined): [number, number] | undefined {
  const m = text === undefined ? null : /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text.trim());
  if (!m) return undefined;
  const first = Number(m[1]);
  return [first, m[2] === undefined ? first + 1 : Number(m[2])];
}
