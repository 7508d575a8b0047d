/** One RTSP/1.0 request (RFC 2326 §6): header names lower-cased, the body as bytes. */
export interface RtspRequest {
  method: string;
  uri: string;
  cseq: number;
  headers: Map<string, string>;
  body: Buffer;
}

/** What the next bytes of a connection hold. `length` is how many bytes it took. */
export type RtspParsed =
  | { kind: 'request'; request: RtspRequest; length: number }
  /** An interleaved binary frame (RFC 2326 §10.12): `$`, channel, 16-bit length, data. */
  | { kind: 'interleaved'; channel: number; payload: Buffer; length: number }
  | { kind: 'incomplete' }
  /** Bytes that are no request: answered with `status` (with the CSeq when it was read), then closed. */
  | { kind: 'error'; status: number; reason: string; cseq?: number };

export interface RtspParseLimits {
  /** Request line and headers together: clients send a few hundred bytes. */
  maxHeaderBytes: number;
  /** A body (ANNOUNCE's SDP, SET_PARAMETER): a few KB. */
  maxBodyBytes: number;
  maxHeaders: number;
}

export const RTSP_PARSE_LIMITS: Readonly<RtspParseLimits> = {
  maxHeaderBytes: 8 * 1024,
  maxBodyBytes: 64 * 1024,
  maxHeaders: 64,
};

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_END = Buffer.from('\r\n\r\n');
const DOLLAR = 0x24;
/** Bytes a request line may not hold: controls other than tab. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;

/**
 * Reads the next RTSP message of a connection's bytes: a request with its body, an interleaved
 * frame, not enough bytes yet, or an error status. Pure: no state, nothing kept of `bytes`
 * (interleaved payloads are views into it, the caller uses them before the buffer is reused).
 */
export function parseRtsp(bytes: Buffer, limits: RtspParseLimits = RTSP_PARSE_LIMITS): RtspParsed {
  if (bytes.length === 0) return { kind: 'incomplete' };
  if (bytes[0] === DOLLAR) {
    if (bytes.length < 4) return { kind: 'incomplete' };
    const size = bytes.readUInt16BE(2);
    if (bytes.length < 4 + size) return { kind: 'incomplete' };
    return {
      kind: 'interleaved',
      channel: bytes[1]!,
      payload: bytes.subarray(4, 4 + size),
      length: 4 + size,
    };
  }
  const end = bytes.indexOf(HEADER_END);
  if (end < 0) {
    return bytes.length > limits.maxHeaderBytes
      ? { kind: 'error', status: 431, reason: `a header block over ${limits.maxHeaderBytes} bytes` }
      : { kind: 'incomplete' };
  }
  if (end > limits.maxHeaderBytes)
    return { kind: 'error', status: 431, reason: `a header block over ${limits.maxHeaderBytes} bytes` };
  const lines = bytes.toString('latin1', 0, end).split('\r\n');
  const head = readHeaders(lines.slice(1), limits.maxHeaders);
  const cseqText = head.headers?.get('cseq');
  const cseq = cseqText !== undefined && /^\d{1,9}$/.test(cseqText) ? Number(cseqText) : undefined;
  const fail = (status: number, reason: string): RtspParsed => ({ kind: 'error', status, reason, cseq });

  const requestLine = lines[0]!.split(' ');
  if (requestLine.length !== 3 || CONTROL.test(lines[0]!)) return fail(400, 'a malformed request line');
  const [method, uri, version] = requestLine as [string, string, string];
  if (!TOKEN.test(method) || uri.length === 0) return fail(400, 'a malformed request line');
  if (!/^RTSP\/\d\.\d$/.test(version)) return fail(400, `not an RTSP request (${version.slice(0, 16)})`);
  if (version !== 'RTSP/1.0') return fail(505, `RTSP version ${version.slice(5)} is not supported`);
  if (!head.headers) return fail(head.status, head.reason);
  if (cseqText === undefined) return fail(400, 'no CSeq');
  if (cseq === undefined) return fail(400, 'a bad CSeq');

  const lengthText = head.headers.get('content-length') ?? '0';
  if (!/^\d{1,9}$/.test(lengthText)) return fail(400, 'a bad Content-Length');
  const bodyLength = Number(lengthText);
  if (bodyLength > limits.maxBodyBytes) return fail(413, `a body over ${limits.maxBodyBytes} bytes`);
  const total = end + HEADER_END.length + bodyLength;
  if (bytes.length < total) return { kind: 'incomplete' };
  const body = Buffer.from(bytes.subarray(end + HEADER_END.length, total));
  return { kind: 'request', request: { method, uri, cseq, headers: head.headers, body }, length: total };
}

type HeadersOrError =
  { headers: Map<string, string> } | { headers?: undefined; status: number; reason: string };

function readHeaders(lines: string[], maxHeaders: number): HeadersOrError {
  if (lines.length > maxHeaders) return { status: 431, reason: `over ${maxHeaders} headers` };
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!TOKEN.test(name) || CONTROL.test(line.replace(/\t/g, ' ')))
      return { status: 400, reason: 'a malformed header line' };
    const key = name.toLowerCase();
    const value = line.slice(colon + 1).trim();
    // A repeated CSeq or Content-Length is ambiguous: which one the peer meant is not guessed.
    if (headers.has(key) && (key === 'cseq' || key === 'content-length'))
      return { status: 400, reason: `a repeated ${name} header` };
    headers.set(key, headers.has(key) ? `${headers.get(key)}, ${value}` : value);
  }
  return { headers };
}
