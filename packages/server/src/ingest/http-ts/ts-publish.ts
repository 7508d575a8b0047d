import type { IncomingMessage, ServerResponse } from 'node:http';
import { releaseBodyDeadline } from '../../http/connection-limits.js';
import { logText } from '../rtmp/log-text.js';
import type { AskingPublishHandler, PublishRequest, PublishSink } from '../rtmp/rtmp-server.js';
import { publishRequestFor } from '../webrtc/webrtc-socket.js';
import { TsBodyCheck } from './ts-body-check.js';

/** A publisher that sends nothing for this long is cut off (a stalled or very slow uploader). */
export const TS_PUBLISH_IDLE_TIMEOUT_MS = Number(process.env.SLUICE_TS_PUBLISH_IDLE_TIMEOUT_MS) || 10_000;

/** PUT or POST /{name}/mpegts (spec 001 §9 publish URLs: HTTP/HTTPS MPEG-TS host/name/mpegts). */
const SHAPE = /^\/(.+)\/mpegts$/;

export interface TsPublishDeps {
  /** The RTMP listener's publish entry: play authorization of the publisher, then the engine's routing. */
  publish: AskingPublishHandler;
  log: { notice(message: string): void };
}

/**
 * HTTP MPEG-TS publish: the request body (chunked or sized, of any length: a live feed) is the
 * stream's media. It goes where an RTMP publish of the same path goes, by the same rules (routing,
 * `?password=`, the stream's auth, on_publish, max_bitrate), with published_via `mpegts`. Nothing
 * of the body is read before the publish is accepted; after that the body goes through the TS
 * packetizer (the UDP/HTTP sources' input path) to the stream. A body that is not MPEG-TS ends the
 * publish with 400, a publisher silent for TS_PUBLISH_IDLE_TIMEOUT_MS with 408; each with a log line.
 * Returns false for requests that are not a TS publish.
 */
export function tsPublishHandler(
  deps: TsPublishDeps,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== 'PUT' && req.method !== 'POST') return false;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const match = SHAPE.exec(q < 0 ? url : url.slice(0, q));
    if (!match) return false;
    let name: string;
    try {
      name = decodeURIComponent(match[1]!);
    } catch {
      return false;
    }
    const query = Object.fromEntries(new URLSearchParams(q < 0 ? '' : url.slice(q + 1)));
    const remote = req.socket.remoteAddress ?? '';
    const request: PublishRequest = {
      ...publishRequestFor(name, query, remote),
      via: 'mpegts',
      format: 'mpegts',
    };
    new TsPublish(req, res, request, deps).start();
    return true;
  };
}

/** One HTTP publisher: its request body fed to the sink the engine gave, until either side ends. */
class TsPublish {
  private sink: PublishSink | undefined;
  private done = false;
  private readonly check = new TsBodyCheck();
  private readonly who: string;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly request: PublishRequest,
    private readonly deps: TsPublishDeps,
  ) {
    this.who = `${logText(`${request.app}/${request.name}`)} from ${logText(request.remoteAddress)}`;
  }

  start(): void {
    const { req } = this;
    // Not a byte of the body is read until the publish is accepted.
    req.pause();
    // On the request (its 'timeout' event): Node destroys a timed-out socket nobody listens for.
    req.setTimeout(TS_PUBLISH_IDLE_TIMEOUT_MS, () =>
      this.end(408, `nothing received for ${TS_PUBLISH_IDLE_TIMEOUT_MS} ms`),
    );
    req.on('close', () => this.end(undefined, 'the publisher went away'));
    req.on('error', () => this.end(undefined, 'the publisher went away'));
    let answer: ReturnType<AskingPublishHandler>;
    try {
      answer = this.deps.publish(this.request);
    } catch (error) {
      return this.end(500, `an error accepting it: ${logText((error as Error).message)}`);
    }
    if (answer instanceof Promise)
      answer.then(
        (decided) => this.decided(decided),
        (error: unknown) => this.end(500, `an error accepting it: ${logText(String(error))}`),
      );
    else this.decided(answer);
  }

  private decided(answer: PublishSink | { refused: string }): void {
    if ('refused' in answer) return this.end(403, answer.refused, 'refused');
    if (this.done) return answer.end();
    this.sink = answer;
    answer.attach?.(() => this.end(409, 'disconnected by the server'));
    this.deps.log.notice(`mpegts publish ${this.who} started`);
    // A live feed has no end: the whole-body deadline of ordinary requests does not apply.
    releaseBodyDeadline(this.req);
    this.req.on('data', (chunk: Buffer) => this.data(chunk));
    this.req.on('end', () => this.end(200, 'the body ended'));
    this.req.resume();
  }

  private data(chunk: Buffer): void {
    if (this.done) return;
    const packets = this.check.push(chunk);
    if (this.check.garbage) return this.end(400, `not MPEG-TS: ${this.check.garbage}`);
    if (packets.length > 0) this.sink?.write(packets);
  }

  /** Ends the publish once: a log line, the answer when one can still be sent, the connection closed. */
  private end(status: number | undefined, reason: string, verb = 'ended'): void {
    if (this.done) return;
    this.done = true;
    this.deps.log.notice(`mpegts publish ${this.who} ${verb}: ${logText(reason)}`);
    this.sink?.end();
    this.sink = undefined;
    const { res, req } = this;
    if (status !== undefined && !res.headersSent && !res.destroyed) {
      res.writeHead(status, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'close',
      });
      res.end(`${reason}\n`);
    }
    // An unread or unfinished body can't be followed by another request on this connection.
    if (status !== 200) res.once('finish', () => req.socket.destroy());
    if (status === undefined || res.writableFinished) req.socket.destroy();
  }
}
