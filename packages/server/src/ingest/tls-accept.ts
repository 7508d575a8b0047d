import type { Socket } from 'node:net';
import { type SecureContext, TLSSocket } from 'node:tls';
import { logText } from './rtmp/log-text.js';

/** What a listener needs to take its peers over TLS (RTMPS, RTSPS). */
export interface TlsWrap {
  /** The protocol's name for the log: rtmps, rtsps. */
  name: string;
  /**
   * The certificate to present, asked at each accept: a certificate replaced while the server
   * runs is the one new handshakes get, without reopening the port.
   */
  secureContext: () => SecureContext;
}

export interface TlsAcceptLog {
  notice(message: string): void;
}

/**
 * Starts TLS on an accepted TCP socket and hands the TLS socket to `then` once the handshake is
 * done. A peer that does not finish its handshake within `timeoutMs` (it stalls, or speaks
 * plain RTMP/RTSP, or sends garbage) is closed with one log line: nothing of the inner protocol
 * runs before the handshake, and the socket's own deadlines start after it.
 */
export function acceptTls(
  socket: Socket,
  wrap: TlsWrap,
  timeoutMs: number,
  log: TlsAcceptLog,
  then: (secure: TLSSocket) => void,
): void {
  const peer = logText(socket.remoteAddress ?? '');
  let context: SecureContext;
  try {
    context = wrap.secureContext();
  } catch (error) {
    log.notice(`${wrap.name} connection from ${peer} ended: no certificate (${logText(String(error))})`);
    return void socket.destroy();
  }
  const secure = new TLSSocket(socket, { isServer: true, secureContext: context });
  let done = false;
  const fail = (reason: string) => {
    if (!done) log.notice(`${wrap.name} connection from ${peer} ended: ${reason}`);
    done = true;
    secure.destroy();
  };
  const deadline = setTimeout(() => fail(`no TLS handshake within ${timeoutMs} ms`), timeoutMs);
  secure.once('close', () => clearTimeout(deadline));
  // Handshake errors only: once handed on, the connection listens for its own errors.
  const onError = (error: NodeJS.ErrnoException) =>
    fail(`TLS handshake failed (${logText(error.code ?? error.message).slice(0, 80)})`);
  secure.on('error', onError);
  secure.once('secure', () => {
    clearTimeout(deadline);
    if (done) return;
    done = true;
    secure.off('error', onError);
    then(secure);
  });
}
