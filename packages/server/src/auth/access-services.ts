import { isAbsolute, join, resolve } from 'node:path';
import { type Config, isPlainObject, type Mirror } from '@sluice/api';
import {
  type ClientSession,
  type ClientSessions,
  MAX_SESSIONS_PER_IP,
  SESSION_IDLE_SECONDS,
  type SessionHooks,
} from '../delivery/client-sessions.js';
import { Aes128 } from '../drm/aes128.js';
import { HlsDrm } from '../drm/hls-drm.js';
import { historyHandler } from '../history/history-handlers.js';
import { SessionLog } from '../history/session-log.js';
import { retentionOf } from '../history/session-retention.js';
import type { TrafficHistory } from '../pulse/traffic-history.js';
import type { Logger } from '../support/log.js';
import { IptvPlugin } from '../iptv/iptv-plugin.js';
import { GeoIp } from './geoip.js';
import { PlayAuth } from './play-auth.js';
import { Revalidator } from './revalidator.js';
import { ServerSecret } from './server-secret.js';

/** The session log's folder when the config names none: next to the config file. */
export const DEFAULT_SESSION_LOG_DIR = 'session_log';

/**
 * Who may watch and who watched, built once for media-services.ts: play authorization, the
 * admin token, HLS AES-128, the session log and the history call.
 */
export class AccessServices {
  readonly secret: ServerSecret;
  readonly geo: GeoIp;
  readonly auth: PlayAuth;
  readonly drm: HlsDrm;
  /** The IPTV plugin's users (iptv/): the iptv auth type, playlists, /tv/api. */
  readonly iptv: IptvPlugin;
  private config: Config = {};
  private sessionLog: SessionLog | undefined;
  /** Why the session log can't be opened or written now: a header notice until it works again. */
  private sessionLogError: string | undefined;
  private reopenTimer: NodeJS.Timeout | undefined;
  private revalidator: Revalidator | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly log: Logger,
    /** The live view: which mirror shows a mirrored stream (`sources[pos].streams[name]`, cluster/mirrors.ts). */
    private readonly snapshot: () => Record<string, unknown> = () => ({}),
  ) {
    this.secret = new ServerSecret(dataDir);
    this.geo = new GeoIp(() => this.config.geoip_overrides);
    this.iptv = new IptvPlugin(dataDir, log);
    this.auth = new PlayAuth({
      config: () => this.config,
      geo: this.geo,
      log,
      isAdminToken: (token) => this.secret.isAdminToken(token),
      mirrorOf: (name) => this.mirrorOf(name),
      iptv: this.iptv,
    });
    const aes = new Aes128({
      ownKey: (name, keyId) => this.secret.derive(`aes128 key ${name} ${keyId}`).subarray(0, 16),
    });
    this.drm = new HlsDrm(() => this.config, aes);
  }

  /** For ClientSessions: each session's country, and its line in the log when it ends. */
  readonly sessionHooks: SessionHooks = {
    countryOf: (ip) => this.geo.country(ip),
    onClose: (session) => this.record(session),
    maxPerIp: () => this.config.max_sessions_per_ip ?? MAX_SESSIONS_PER_IP,
    idleMs: () => (this.config.session_idle_seconds ?? SESSION_IDLE_SECONDS) * 1000,
  };

  /** Follows the config: the session log moves when `session_log` changes. */
  apply(config: Config): void {
    this.config = config;
    this.iptv.apply(config);
    const folder = this.logFolder(config);
    if (this.sessionLog?.folder === folder) return this.sessionLog.retain(retentionOf(config));
    this.sessionLog?.close();
    this.sessionLog = undefined;
    this.openLog(folder);
  }

  /** Header notice (stats `status`): the session log failing, so History shows nothing new. */
  notices(): Record<string, string> {
    return this.sessionLogError ? { error_session_log: this.sessionLogError } : {};
  }

  /** Opened now, or tried again every 2 s until it opens (the folder made writable, say). */
  private openLog(folder: string): void {
    if (this.reopenTimer) clearTimeout(this.reopenTimer);
    this.reopenTimer = undefined;
    try {
      this.sessionLog = new SessionLog(folder, retentionOf(this.config));
      this.sessionLogError = undefined;
    } catch (error) {
      const message = `session log ${folder}: ${error instanceof Error ? error.message : String(error)}`;
      if (message !== this.sessionLogError) this.log.error(message);
      this.sessionLogError = `${message}: play sessions are not recorded`;
      this.reopenTimer = setTimeout(() => {
        if (this.logFolder(this.config) === folder && !this.sessionLog) this.openLog(folder);
      }, 2000);
      this.reopenTimer.unref();
    }
  }

  /** Open sessions are checked against play authorization again, every 10 s (auth/revalidator.ts). */
  watch(clients: ClientSessions): void {
    if (this.revalidator) return;
    const revalidator = new Revalidator(this.auth, clients, this.log);
    this.revalidator = revalidator;
    // A removed IPTV user (or a regenerated key) ends their sessions now, not at the next pass.
    this.iptv.onAccessLost(() => void revalidator.pass());
  }

  history(traffic: TrafficHistory, clients: ClientSessions) {
    return historyHandler({
      log: () => this.sessionLog,
      traffic: (name) => traffic.points(name),
      openSpans: (name, now) => clients.list(name).map((s) => [s.createdAt, now] as [number, number]),
    });
  }

  close(): void {
    this.revalidator?.stop();
    this.iptv.close();
    if (this.reopenTimer) clearTimeout(this.reopenTimer);
    this.sessionLog?.close();
    this.sessionLog = undefined;
  }

  private mirrorOf(name: string): Mirror | undefined {
    const shown = this.snapshot().sources;
    if (!isPlainObject(shown)) return undefined;
    for (const [position, mirror] of Object.entries(this.config.sources ?? {})) {
      const entry = shown[position];
      if (isPlainObject(entry) && isPlainObject(entry.streams) && name in entry.streams) return mirror;
    }
    return undefined;
  }

  private logFolder(config: Config): string {
    const configured = config.session_log?.trim();
    if (!configured) return join(this.dataDir, DEFAULT_SESSION_LOG_DIR);
    return isAbsolute(configured) ? configured : resolve(this.dataDir, configured);
  }

  private record(session: ClientSession): void {
    try {
      this.sessionLog?.write({
        id: session.id,
        name: session.stream,
        type: session.type,
        ip: session.ip,
        country: session.country,
        createdAt: session.createdAt,
        // The last request or byte: an HLS player is swept only after some quiet time.
        deletedAt: Math.max(session.createdAt, session.lastSeenAt),
        bytesSent: session.bytesSent,
        userId: session.userId,
        token: session.token,
        userAgent: session.userAgent,
      });
      if (this.sessionLog) this.sessionLogError = undefined;
    } catch (error) {
      const message = `session log: ${error instanceof Error ? error.message : String(error)}`;
      if (message !== this.sessionLogError) this.log.error(message);
      this.sessionLogError = message;
    }
  }
}
