import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '@sluice/api';
import { authorizedSession, whenReady } from '../auth/play-gate.js';
import type { PlayAuth } from '../auth/play-auth.js';
import type { ClientSession, ClientSessions, SessionType } from '../delivery/client-sessions.js';
import { protocolAllowed } from '../delivery/protocols.js';
import { refuseJson } from '../dvr/archive-respond.js';
import type { LiveView } from '../live/live-view.js';
import { OpenedFiles } from './opened-files.js';
import { ReadLimits } from './read-limits.js';
import { type VodFormat, type VodRequest } from './vod-format.js';
import { type Located, type LocatedFile, locateVodFile } from './vod-locate.js';
import { serveProgressive } from './vod-progressive.js';
import { VodRoots, type VodLocation } from './vod-roots.js';
import { type VodOpeners, VodSources } from './vod-sources.js';
import { HLS_RESOURCE, parseVodUrl, type VodTarget, type VodUrl, vodFileName } from './vod-url.js';
import { serveVodStream, type VodStreamDeps } from './vod-stream.js';

export interface VodPlaybackDeps {
  view: LiveView;
  sessions: ClientSessions;
  /** Play authorization (auth/play-auth.ts): a file's auth is its VOD's (auth/auth-source.ts). */
  auth: PlayAuth;
  /** The file readers: MP4 (vod/mp4-source.ts) and the others (vod/ffmpeg-source.ts). */
  openers: VodOpeners;
  /** Formats besides the file, HLS and MPEG-TS (DASH, preview.jpg): see vod-format.ts. */
  formats?: readonly VodFormat[];
}

/** A request's file, found on disk, and what of it is asked for. */
interface Found {
  name: string;
  target: VodTarget;
  file: LocatedFile;
}

/**
 * VOD playback on the plain Node request path (delivery/playback.ts asks it first): the URL
 * family of vod-url.ts under each configured prefix. A request goes through, in order: the VOD
 * enabled, the path safe, the file found, `download` and the protocol switches, play authorization
 * and its session (sessions are named PREFIX/PATH, so the clients tab, close_sessions and the
 * history log treat a file as a stream), then the answer. While a file has sessions it is opened
 * (opened-files.ts). Returns false for a path under no VOD prefix.
 */
export class VodPlayback {
  private readonly roots = new VodRoots();
  private readonly sources: VodSources;
  private readonly opened: OpenedFiles;
  private readonly formats: readonly VodFormat[];
  private readonly limits = new ReadLimits();
  private prefixes: string[] = [];

  constructor(private readonly deps: VodPlaybackDeps) {
    this.sources = new VodSources(deps.openers);
    this.opened = new OpenedFiles(deps.view, deps.sessions);
    this.formats = deps.formats ?? [];
  }

  apply(config: Config): void {
    this.roots.update(config);
    this.prefixes = this.roots.prefixes();
  }

  /** Files with sessions now: the server stats' opened_files. */
  get openedCount(): number {
    return this.opened.count;
  }

  readonly handler = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (this.prefixes.length === 0 || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const parsed = parseVodUrl(q < 0 ? url : url.slice(0, q), this.prefixes, this.isResource);
    if (!parsed) return false;
    if ('error' in parsed) {
      refuseJson(res, 400, parsed.error);
      return true;
    }
    const vod = this.roots.vod(parsed.prefix)!;
    if (vod.disabled) {
      refuseJson(res, 404, `vod ${vod.prefix} is disabled`);
      return true;
    }
    const params = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    this.answer(vod, parsed, params, req, res).catch((error: Error) => {
      if (!res.headersSent) refuseJson(res, 500, error.message);
      else res.destroy();
    });
    return true;
  };

  close(): void {
    this.opened.close();
    this.sources.close();
  }

  private readonly isResource = (part: string): boolean =>
    HLS_RESOURCE.test(part) || this.formats.some((f) => f.matches(part));

  private async answer(
    vod: VodLocation,
    parsed: VodUrl,
    params: URLSearchParams,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const { prefix } = vod;
    let found: Found | undefined;
    let failure: Located & { status: number } = { status: 404, error: '' };
    for (const target of parsed.targets) {
      const name = vodFileName(prefix, target.parts);
      const located = await locateVodFile(this.roots, prefix, target.parts, name);
      if ('file' in located) {
        found = { name, target, file: located.file };
        break;
      }
      // The first reading's answer, unless a later one says more than "not found".
      if (failure.error === '' || (failure.status === 404 && located.status !== 404)) failure = located;
    }
    const target = found?.target ?? parsed.targets[0]!;
    const name = found?.name ?? vodFileName(prefix, target.parts);
    const { resource } = target;
    const format =
      resource && !HLS_RESOURCE.test(resource) ? this.formats.find((f) => f.matches(resource)) : undefined;
    const type: SessionType | undefined =
      resource === '' ? 'mp4' : resource === 'mpegts' ? 'mpegts' : format ? format.session(resource) : 'hls';
    // The file as it is: `download` (spec 002 VOD output). Unset serves it: a <video> plays MP4 from it.
    if (type === 'mp4' && vod.config.download === false)
      return refuseJson(res, 403, `download of ${name} is switched off (vod ${prefix}: download false)`);
    const protocols = (vod.config as { protocols?: Record<string, boolean> }).protocols;
    if (type && type !== 'mp4' && !protocolAllowed(protocols, type))
      return refuseJson(res, 403, `${type} is switched off for vod ${prefix}`);
    const token = params.get('token') ?? undefined;
    const who = {
      stream: name,
      ip: req.socket.remoteAddress ?? '',
      userAgent: req.headers['user-agent'] ?? '',
      token,
      referer: req.headers.referer,
    };
    const query = token ? `?token=${encodeURIComponent(token)}` : '';
    if (!type) {
      // A preview shows the file: the same authorization, but no session (as a stream's preview.jpg).
      const check = { ...who, name, proto: 'preview', sessionId: '', requestType: 'play' as const };
      whenReady(this.deps.auth.check(check), (d) => {
        if (!d.allow) return refuseJson(res, 403, `access denied: ${d.reason}`);
        if (!found) return refuseJson(res, failure.status, failure.error);
        void this.serveFormat(format!, { found, prefix, query, session: undefined, req, res });
      });
      return;
    }
    // Authorization comes before the file's absence is told: a denied player learns nothing of it.
    const missing = () => (found ? undefined : { refused: failure.error });
    const maxSessions = vod.config.auth?.max_sessions;
    whenReady(
      authorizedSession(this.deps.auth, this.deps.sessions, { ...who, type }, maxSessions, missing),
      (session) => {
        if ('refused' in session) {
          if (!found && session.refused === failure.error) {
            if (failure.status === 404) this.gone(name);
            return refuseJson(res, failure.status, failure.error);
          }
          return refuseJson(res, session.status ?? 403, session.refused);
        }
        this.opened.note(name, prefix, found!.file.absolute);
        const request = { found: found!, prefix, query, session, req, res };
        if (type === 'mp4') {
          serveProgressive(this.deps.sessions, session, found!.file, req, res);
          void this.learnTracks(found!, prefix);
        } else if (format) void this.serveFormat(format, request);
        else void serveVodStream(this.streamDeps(), { ...request, resource, session });
      },
    );
  }

  private streamDeps(): VodStreamDeps {
    return {
      sessions: this.deps.sessions,
      borrow: (file) => this.sources.borrow(file),
      noteTracks: (name, prefix, file, tracks) => this.opened.note(name, prefix, file.absolute, tracks),
      limit: (prefix, absolute, task) => {
        const config = this.roots.vod(prefix)?.config;
        const limits = { readQueue: config?.read_queue, maxReaders: config?.max_readers };
        return this.limits.run(prefix, absolute, limits, task);
      },
      stillThere: (prefix, found) => this.stillThere(prefix, found),
    };
  }

  private async serveFormat(
    format: VodFormat,
    r: {
      found: Found;
      prefix: string;
      query: string;
      session: ClientSession | undefined;
      req: IncomingMessage;
      res: ServerResponse;
    },
  ): Promise<void> {
    const { found } = r;
    const request: VodRequest = {
      name: found.name,
      prefix: r.prefix,
      file: found.file,
      resource: found.target.resource,
      query: r.query,
      borrow: () => this.sources.borrow(found.file),
      session: r.session,
      sessions: this.deps.sessions,
      req: r.req,
      res: r.res,
    };
    try {
      await format.serve(request);
    } catch (error) {
      if (r.res.headersSent) return void r.res.destroy();
      const status = (error as { status?: unknown }).status;
      const message = (error as Error).message.split(found.file.absolute).join(found.name);
      refuseJson(r.res, typeof status === 'number' ? status : 422, message);
    }
  }

  /** A file downloaded as it is shows its tracks too (opened once, then kept in the cache). */
  private async learnTracks(found: Found, prefix: string): Promise<void> {
    if (!this.opened.needsTracks(found.name)) return;
    try {
      const borrowed = await this.sources.borrow(found.file);
      this.opened.note(found.name, prefix, found.file.absolute, borrowed.source.tracks);
      borrowed.release();
    } catch {
      // Not a file the readers know (or damaged): it is still served as it is, without tracks.
    }
  }

  /** Whether the file is still where it was found; when gone, its sessions end (this.gone). */
  private async stillThere(prefix: string, found: Found): Promise<Located> {
    const located = await locateVodFile(this.roots, prefix, found.target.parts, found.name);
    if ('status' in located && located.status === 404) this.gone(found.name);
    return located;
  }

  /**
   * A file that was played is gone from disk: its source is closed, and its sessions end now
   * (each logged to the history) rather than when they go quiet; a player asking again is a new
   * session, told 404.
   */
  private gone(name: string): void {
    const absolute = this.opened.pathOf(name);
    if (absolute) this.sources.forget(absolute);
    const ids = this.deps.sessions.list(name).map((s) => s.id);
    if (ids.length > 0) this.deps.sessions.close(ids, Date.now(), false);
  }
}
