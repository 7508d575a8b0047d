/**
 * Smooth Streaming URLs (spec 001 §9: `{name}.isml/manifest`): the manifest, and the fragment
 * template its StreamIndex elements give, `QualityLevels({bitrate})/Fragments({track}={start time})`
 * (and `FragmentInfo(…)`, which dash.js asks for the next fragment's times while paused).
 */
export type MssRequest =
  | { kind: 'manifest' }
  | { kind: 'fragment'; bitrate: number; track: MssTrackName; time: number; infoOnly: boolean };

export type MssTrackName = 'video' | 'audio';

/** What a path is: not Smooth Streaming (undefined), a request of a stream, or a malformed one. */
export type MssUrl = { name: string } & ({ request: MssRequest } | { error: string });

const MARK = '.isml/';
const FRAGMENT = /^QualityLevels\(([^)/]*)\)\/(Fragments|FragmentInfo)\(([^)/]*)\)$/;
const DECIMAL = /^\d{1,20}$/;
/** A name part takes no line terminator (it goes into log lines). */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * Reads a request path (no query). The name may hold slashes: it ends at the last `.isml/`. Names
 * are percent-decoded per path part; a path that does not decode is not Smooth Streaming.
 */
export function parseMssPath(path: string): MssUrl | undefined {
  const at = path.lastIndexOf(MARK);
  if (at < 2 || path[0] !== '/') return undefined;
  let name: string;
  try {
    name = decodeURIComponent(path.slice(1, at));
  } catch {
    return undefined;
  }
  if (name === '' || LINE_BREAK.test(name)) return undefined;
  const rest = path.slice(at + MARK.length);
  if (rest.toLowerCase() === 'manifest') return { name, request: { kind: 'manifest' } };
  const m = FRAGMENT.exec(rest);
  if (!m)
    return { name, error: 'not a Smooth Streaming resource (manifest or QualityLevels(…)/Fragments(…))' };
  const [, bitrateText, what, fragmentText] = m as unknown as [string, string, string, string];
  if (!/^\d{1,10}$/.test(bitrateText) || Number(bitrateText) === 0)
    return { name, error: `bad bitrate "${clip(bitrateText)}": a positive integer is expected` };
  const eq = fragmentText.indexOf('=');
  const track = fragmentText.slice(0, eq);
  const timeText = fragmentText.slice(eq + 1);
  if (eq < 0 || (track !== 'video' && track !== 'audio'))
    return { name, error: `bad fragment "${clip(fragmentText)}": video={time} or audio={time} is expected` };
  if (!DECIMAL.test(timeText) || !Number.isSafeInteger(Number(timeText)))
    return { name, error: `bad fragment time "${clip(timeText)}": an integer of 100 ns units is expected` };
  return {
    name,
    request: {
      kind: 'fragment',
      bitrate: Number(bitrateText),
      track,
      time: Number(timeText),
      infoOnly: what === 'FragmentInfo',
    },
  };
}

/** Peer text in a message: short, printable. */
const clip = (text: string): string => text.slice(0, 40).replace(/[^\x20-\x7e]/g, '?');
