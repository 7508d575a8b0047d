import type { IncomingMessage } from 'node:http';

/** Why a body could not be read: too large (413) or not sent in time (408). */
export interface BodyRefusal {
  refused: string;
  status: 408 | 413;
}

/**
 * A small request body as text, read whole, at most `maxBytes` (a larger Content-Length is refused
 * before a byte is read) and within `timeoutMs`: a peer that is not yet authorized holds no more
 * than that, for no longer.
 */
export function readSmallBody(
  req: IncomingMessage,
  maxBytes: number,
  timeoutMs: number,
): Promise<string | BodyRefusal> {
  const tooLarge: BodyRefusal = { refused: `the body is larger than ${maxBytes} bytes`, status: 413 };
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) return Promise.resolve(tooLarge);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: string | BodyRefusal) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.removeAllListeners('data');
      // The rest of a refused body is not read: the connection ends after the answer.
      if (typeof result !== 'string') req.pause();
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ refused: `the body did not come within ${timeoutMs / 1000} s`, status: 408 }),
      timeoutMs,
    );
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return finish(tooLarge);
      chunks.push(chunk);
    });
    req.once('end', () => finish(Buffer.concat(chunks).toString('utf8')));
    req.once('error', (error) => finish({ refused: error.message, status: 408 }));
  });
}
