import { hasControlCharacters } from './offer-codecs.js';

/**
 * A WHIP trickle PATCH body (RFC 8840 application/trickle-ice-sdpfrag, RFC 9725 §4.3.1): the
 * publisher's ICE credentials and candidates, per media section (a=mid), at most an
 * a=end-of-candidates. Only what Sluice uses is read; anything else that is not an x=… line is
 * refused as malformed.
 */

/** A fragment larger than this is refused unread: one holds a few candidates, under 2 KB. */
export const MAX_FRAGMENT_BYTES = 16 * 1024;
/** More candidates than this in one PATCH are refused: each costs connectivity checks. */
const MAX_CANDIDATES = 64;

export interface TrickleCandidate {
  /** `candidate:…`, as RTCIceCandidate.candidate carries it. */
  candidate: string;
  sdpMid: string | undefined;
}

export interface TrickleFragment {
  /** The ufrag the fragment names (an ICE restart names a new one), when it names one. */
  ufrag: string | undefined;
  candidates: TrickleCandidate[];
  endOfCandidates: boolean;
}

/** Reads the fragment, or says why it can't be. */
export function trickleFragment(body: string): TrickleFragment | { refused: string } {
  const bad = (why: string) => ({ refused: `malformed trickle ICE fragment: ${why}` });
  if (Buffer.byteLength(body) > MAX_FRAGMENT_BYTES) return bad(`larger than ${MAX_FRAGMENT_BYTES} bytes`);
  if (hasControlCharacters(body)) return bad('control characters in the text');
  const out: TrickleFragment = { ufrag: undefined, candidates: [], endOfCandidates: false };
  let mid: string | undefined;
  for (const line of body.split(/\r?\n/)) {
    if (line === '') continue;
    if (!/^[a-z]=/.test(line)) return bad('a line is not of the form x=…');
    const ufrag = /^a=ice-ufrag:(\S{1,256})$/.exec(line);
    if (ufrag) {
      if (out.ufrag !== undefined && out.ufrag !== ufrag[1]) return bad('two different ice-ufrag lines');
      out.ufrag = ufrag[1];
    }
    const m = /^a=mid:(\S{1,32})$/.exec(line);
    if (m) mid = m[1];
    if (line === 'a=end-of-candidates') out.endOfCandidates = true;
    if (line.startsWith('a=candidate:')) {
      // foundation component transport priority address port typ type …
      if (!/^a=candidate:\S{1,32} \d{1,5} \S{1,8} \d{1,10} \S{1,256} \d{1,5} typ \S{1,16}( .*)?$/.test(line))
        return bad(`unreadable candidate "${line.slice(0, 80)}"`);
      if (out.candidates.length >= MAX_CANDIDATES) return bad(`more than ${MAX_CANDIDATES} candidates`);
      out.candidates.push({ candidate: line.slice(2), sdpMid: mid });
    }
  }
  return out;
}

/** The ufrag of the offer's ICE credentials (session level or first section), for ICE restarts. */
export function offerUfrag(offer: string): string | undefined {
  return /^a=ice-ufrag:(\S+?)\r?$/m.exec(offer)?.[1];
}
