/** Reason phrases of the statuses this server answers with (RFC 2326 §7.1.1). */
const REASONS: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  431: 'Request Header Fields Too Large',
  453: 'Not Enough Bandwidth',
  454: 'Session Not Found',
  455: 'Method Not Valid in This State',
  459: 'Aggregate Operation Not Allowed',
  461: 'Unsupported Transport',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
  505: 'RTSP Version Not Supported',
};

/** What a method answers: the status, its headers and body, and what follows once it is written. */
export interface RtspReply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Runs right after the reply is written (PLAY starts sending here). */
  after?: () => void;
  /** The connection closes once the reply is written (TEARDOWN, a protocol error). */
  close?: boolean;
  /** Why it was refused, for the server log (refusals are logged, successes are not). */
  reason?: string;
}

export const SERVER_NAME = 'Sluice';
export const PUBLIC_METHODS =
  'OPTIONS, DESCRIBE, ANNOUNCE, SETUP, PLAY, RECORD, TEARDOWN, GET_PARAMETER, SET_PARAMETER';

/** The bytes of a response; `cseq` is left out when the request had none that could be read. */
export function responseBytes(reply: RtspReply, cseq: number | undefined): Buffer {
  const lines = [`RTSP/1.0 ${reply.status} ${REASONS[reply.status] ?? 'Error'}`];
  if (cseq !== undefined) lines.push(`CSeq: ${cseq}`);
  lines.push(`Server: ${SERVER_NAME}`);
  for (const [name, value] of Object.entries(reply.headers ?? {})) lines.push(`${name}: ${value}`);
  const body = reply.body ?? '';
  if (body.length > 0 || reply.status >= 400)
    lines.push(`Content-Length: ${Buffer.byteLength(body, 'latin1')}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`, 'latin1');
}

/** A refusal with its status and the reason logged. */
export const refuse = (status: number, reason: string, close = false): RtspReply => ({
  status,
  reason,
  close,
});
