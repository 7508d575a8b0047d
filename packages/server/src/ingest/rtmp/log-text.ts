/** Longest peer-given text put in a log line; the rest is cut (a stream name can be 64 KB of AMF). */
const MAX_LOG_TEXT_CHARS = 200;

/**
 * A string a peer chose (stream name, app, query, an error about its bytes), made safe for one log
 * line: control characters and line separators are written as escapes, so a CR/LF in a stream
 * name can't start a forged line, and long text is cut.
 */
export function logText(text: unknown, maxChars = MAX_LOG_TEXT_CHARS): string {
  const value = String(text);
  const cut = value.length > maxChars ? `${value.slice(0, maxChars)}…(${value.length} chars)` : value;
  // eslint-disable-next-line no-control-regex -- matching control characters is the point: C0 and C1, DEL, and the Unicode line and paragraph separators.
  return cut.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
