/** A trickle ICE fragment (RFC 8840, `application/trickle-ice-sdpfrag`) as WHEP players PATCH it. */
export interface SdpFragment {
  ufrag: string | undefined;
  candidates: { candidate: string; mid: string | undefined }[];
  /** a=end-of-candidates: the player has no more. */
  end: boolean;
}

/** Candidates one PATCH may carry (a browser trickles one to a few at a time). */
const MAX_CANDIDATES = 64;

/** Reads a fragment; an error names what is wrong (never throws). */
export function parseSdpFragment(text: string): SdpFragment | { error: string } {
  const fragment: SdpFragment = { ufrag: undefined, candidates: [], end: false };
  let mid: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line === '') continue;
    if (!/^[a-z]=\S/.test(line))
      return { error: `malformed fragment line: ${JSON.stringify(line.slice(0, 80))}` };
    if (line.startsWith('a=ice-ufrag:')) fragment.ufrag = line.slice(12).trim();
    else if (line.startsWith('a=mid:')) mid = line.slice(6).trim();
    else if (line === 'a=end-of-candidates') fragment.end = true;
    else if (line.startsWith('a=candidate:')) {
      // foundation component transport priority address port typ type …
      if (!/^candidate:\S+ \d+ \w+ \d+ \S+ \d+ typ \w+/.test(line.slice(2)))
        return { error: `malformed candidate: ${JSON.stringify(line.slice(0, 80))}` };
      if (fragment.candidates.length >= MAX_CANDIDATES)
        return { error: `more than ${MAX_CANDIDATES} candidates` };
      fragment.candidates.push({ candidate: line.slice(2), mid });
    }
  }
  return fragment;
}
