import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import formbody from '@fastify/formbody';
import websocket from '@fastify/websocket';
import { type Config, type ServerInfo, WEBRTC_PUBLISH_PATH } from '@sluice/api';
import type { ConfigStore } from './config/store.js';
import { HLS_SCRIPT_PATH, loadHlsScript } from './delivery/embed-page.js';
import type { Engine } from './engine/engine.js';
import type { LiveView } from './live/live-view.js';
import type { SessionRegistry } from './http/auth.js';
import { BODY_LIMIT_BYTES, acceptJsonWithDepthLimit } from './http/body-limits.js';
import { configHandlers } from './http/config-handlers.js';
import { registerConsole } from './http/console-static.js';
import type { ErrorReportLog } from './http/error-reports.js';
import { createErrorHandler } from './http/errors.js';
import type { EventsHub } from './http/events-hub.js';
import { createGuard } from './http/guard.js';
import { addSecurityHeaders } from './http/security-headers.js';
import type { PortRoles } from './http/port-roles.js';
import type { CertificateStore } from './tls/certificate-store.js';
import { addTransportSecurity } from './http/transport-security.js';
import { jsonOnly, textOnly } from './http/body-types.js';
import { createCredentialCheck } from './http/credential-check.js';
import { LoginFailureLog } from './http/login-failure-log.js';
import { LoginThrottle } from './http/login-throttle.js';
import { loginHandlers } from './http/login-handlers.js';
import { streamHandlers } from './http/stream-handlers.js';
import { acceptRawBodies, logoHandlers } from './transcoder/logo-handlers.js';
import type { LogoStore } from './transcoder/logo-store.js';
import { originHandlers } from './cluster/origin-handlers.js';
import type { PeerDirectory } from './cluster/peers/peer-directory.js';
import { registerPeerRoutes } from './cluster/peers/peer-routes.js';
import { registerFileApi } from './vod/file-api.js';
import type { LetsEncrypt } from './letsencrypt/letsencrypt.js';
import { registerLetsEncrypt } from './letsencrypt/letsencrypt-routes.js';
import type { Logger } from './support/log.js';
import { registerMetrics } from './pulse/metrics-route.js';
import type { SystemSampler } from './pulse/system-samplers.js';
import type { IptvPlugin } from './iptv/iptv-plugin.js';
import { registerIptv } from './iptv/iptv-routes.js';
import { registerAdSchedules } from './ads/schedule-api.js';
import { registerSupport, type SupportDeps } from './diagnostics/support-routes.js';
import type { AdStreamStats } from './ads/ad-stats.js';

export interface AppDeps {
  store: ConfigStore;
  view: LiveView;
  hub: EventsHub;
  sessions: SessionRegistry;
  errorReports: ErrorReportLog;
  serverInfo: () => ServerInfo;
  /** Folder of the built console (packages/web/dist); undefined or missing serves a hint instead. */
  consoleDir: string | undefined;
  logger?: boolean | { level: string };
  /** The server's log: failed logins are written here. */
  log: Logger;
  engine: Engine;
  /** Playback (delivery/playback.ts): answers HLS and MPEG-TS requests itself, or returns false. */
  playback: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Ends client sessions by id; returns how many there were. */
  closeSessions: (ids: readonly string[]) => number;
  /** Uploaded transcoder logos (the `logos` folder beside the config). */
  logos?: LogoStore;
  /** GET /flussonic/api/history: the session log (history/history-handlers.ts). */
  history?: (request: FastifyRequest, canReadSecrets: boolean) => Promise<unknown>;
  /** GET /flussonic/api/pulse: a Pulse query over a range (pulse/pulse-http.ts). */
  pulse?: (request: FastifyRequest) => Promise<unknown>;
  /** The WebRTC publish websocket (ingest/webrtc): no admin login, the stream's publish rules decide. */
  webrtcPublish?: (socket: WebSocket, request: FastifyRequest) => void;
  /** Admin ports split (http/port-roles.ts): no playback on admin ports, no console/API on public ones. */
  portRoles?: PortRoles;
  /** The server's TLS certificate (tls/certificate-store.ts), for /letsencrypt to install into. */
  certificates?: CertificateStore;
  /** The HTTPS port open now for this request, if any: where `https_redirect` sends console and API requests. */
  httpsPort?: (req: IncomingMessage) => number | undefined;
  /** GET/POST /letsencrypt and the HTTP-01 challenge answers (letsencrypt/). */
  letsencrypt?: LetsEncrypt;
  /** Machine and process figures for GET /metrics (pulse/system-samplers.ts). */
  systemSampler?: SystemSampler;
  /** The IPTV plugin (iptv/): /tv/api, /tv/playlists, /tv/auth. */
  iptv?: IptvPlugin;
  /** Cluster peers (cluster/peers/): GET cluster_servers and what this server tells its peers. */
  peers?: PeerDirectory;
  /** GET cluster/ingest: what this server tells its peers about cluster ingest (cluster/ingest/, keyed proof). */
  clusterIngest?: (request: FastifyRequest) => Promise<unknown>;
  /** GET ad_streams: per stream, each ad file's show_count and view_count (ads/ad-stats.ts). */
  adStreams?: () => AdStreamStats;
  /** Log upload page: POST sendlogs, the kept bundle, the support SSH tunnel (diagnostics/). */
  support?: Omit<SupportDeps, 'edit'>;
}

const API = '/flussonic/api';
/** Large enough for a 20,000-stream config import (http/body-limits.ts). */
const CONFIG_BODY_LIMIT = BODY_LIMIT_BYTES.config;

/** The one route table: API, websocket, console. Handlers live in http/; this file only wires. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // Playback is served before Fastify routes anything: the hot path stays free of framework work.
    serverFactory: (handler) =>
      createServer(
        (req, res) =>
          (deps.portRoles?.servesPlayback(req) !== false && deps.playback(req, res)) || handler(req, res),
      ),
    logger: deps.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES.other,
  });
  app.setErrorHandler(createErrorHandler((line) => deps.log.error(line)));
  addSecurityHeaders(app);
  // First of all: a console or API request on a port that doesn't serve them is a 404.
  if (deps.portRoles) app.addHook('onRequest', deps.portRoles.hook);
  addTransportSecurity(app, () => deps.store.config, deps.httpsPort ?? (() => undefined));
  // The route table in the log (loglevel debug): the attack test calls every route listed, so a
  // new route can't be left unguarded unnoticed (test/security-routes.test.ts).
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) deps.log.debug(`route ${method} ${route.url}`);
  });
  await app.register(formbody);
  acceptJsonWithDepthLimit(app);
  await app.register(websocket, { options: { maxPayload: 1024 * 1024 } });
  // Raw config bodies are text; accept them whatever the client calls them.
  app.addContentTypeParser(
    ['text/plain', 'application/octet-stream'],
    // No bodyLimit of its own: each route's cap applies (a parser's would override the default).
    { parseAs: 'string' },
    (_req, body, done) => done(null, body),
  );

  const config = (): Config => deps.store.config;
  const check = createCredentialCheck(config, new LoginThrottle(), new LoginFailureLog(deps.log));
  const guard = createGuard(config, deps.sessions, check);
  // onRequest hooks: who may call is decided before a byte of the body is read.
  const view = guard.require('view');
  const edit = guard.require('edit');
  const cfg = configHandlers(deps.store, deps.view, guard.access);
  const login = loginHandlers(deps.sessions, check);

  const loginBody = BODY_LIMIT_BYTES.login;
  app.post('/admin/login', { onRequest: guard.sameOrigin, bodyLimit: loginBody }, login.login);
  app.post(
    '/admin/logout',
    // The session is gone once answered: an events socket it opened closes with it.
    { onRequest: guard.sameOrigin, bodyLimit: loginBody, onResponse: async () => deps.hub.recheck() },
    login.logout,
  );

  // The admin token plays any stream: it is a secret, for edit callers only (http/secret-fields.ts).
  app.get(`${API}/server`, { onRequest: view }, async (request) => {
    const { admin_token: adminToken, ...info } = deps.serverInfo();
    const access = guard.access(request);
    return access === 'edit' ? { ...info, admin_token: adminToken, access } : { ...info, access };
  });
  app.get(`${API}/read_config`, { onRequest: view }, cfg.readConfig);
  app.post(
    `${API}/modify_config`,
    { onRequest: [edit, jsonOnly], bodyLimit: CONFIG_BODY_LIMIT },
    cfg.modifyConfig,
  );
  // Upload config's confirmation (not a Flussonic call): what an import would change; saves nothing.
  app.post(
    `${API}/preview_config_import`,
    { onRequest: [edit, jsonOnly], bodyLimit: CONFIG_BODY_LIMIT },
    cfg.previewImport,
  );
  app.get(`${API}/read_raw_config`, { onRequest: edit }, cfg.readRawConfig);
  app.post(
    `${API}/parse_raw_config`,
    { onRequest: [edit, textOnly], bodyLimit: CONFIG_BODY_LIMIT },
    cfg.parseRawConfig,
  );
  app.post(
    `${API}/save_raw_config`,
    { onRequest: [edit, textOnly], bodyLimit: CONFIG_BODY_LIMIT },
    cfg.saveRawConfig,
  );
  app.post(
    `${API}/error/store`,
    { onRequest: [view, jsonOnly], bodyLimit: BODY_LIMIT_BYTES.errorReport },
    async (request) => {
      deps.errorReports.add(request.body, request.ip);
      return { ok: true };
    },
  );
  // The reports kept on disk (http/error-report-reader.ts), for the operator: edit callers only.
  app.get(`${API}/error/reports`, { onRequest: edit }, async (request) => {
    const limit = Number((request.query as { limit?: string }).limit ?? 500);
    return {
      reports: await deps.errorReports.stored(
        Number.isInteger(limit) && limit > 0 ? Math.min(limit, 500) : 500,
      ),
    };
  });
  const streams = streamHandlers(deps.engine, deps.closeSessions);
  app.post(`${API}/stream_restart/*`, { onRequest: edit }, streams.restart);
  app.get(`${API}/stream_switch_source/*`, { onRequest: edit }, streams.switchSource);
  app.get(`${API}/media_info/*`, { onRequest: view }, streams.mediaInfo);
  app.post(
    `${API}/close_sessions`,
    { onRequest: [edit, textOnly], bodyLimit: BODY_LIMIT_BYTES.sessionIds },
    streams.closeSessions,
  );
  if (deps.logos) {
    const logos = logoHandlers(deps.logos, config);
    app.get(`${API}/logo`, { onRequest: view }, logos.list);
    app.get(`${API}/logo/:name`, { onRequest: view }, logos.get);
    app.delete(`${API}/logo/:name`, { onRequest: edit }, logos.remove);
    // Uploads are raw picture bytes: a scope of their own takes any body as a Buffer.
    await app.register(async (raw) => {
      acceptRawBodies(raw);
      raw.put(`${API}/logo/:name`, { onRequest: edit }, logos.put);
    });
  }
  // VOD files: list_files, remove_file, make_dir, upload (streamed; vod/file-api.ts).
  await registerFileApi(app, { config, view, edit });
  if (deps.letsencrypt) registerLetsEncrypt(app, { letsencrypt: deps.letsencrypt, view, edit });
  if (deps.pulse) app.get(`${API}/pulse`, { onRequest: view }, deps.pulse);
  const history = deps.history;
  if (history)
    app.get(`${API}/history`, { onRequest: view }, (request) =>
      history(request, guard.access(request) === 'edit'),
    );
  if (deps.iptv)
    registerIptv(app, {
      plugin: deps.iptv,
      config,
      snapshot: () => deps.view.snapshot,
      view,
      edit,
      canReadSecrets: (request) => guard.access(request) === 'edit',
      log: deps.log,
    });
  if (deps.support) registerSupport(app, { ...deps.support, edit });
  const adStreams = deps.adStreams;
  if (adStreams) app.get(`${API}/ad_streams`, { onRequest: view }, async () => adStreams());
  // Ad schedules (ads/schedule-api.ts): saved through the store like modify_config.
  registerAdSchedules(app, {
    config,
    save: (delta) => deps.store.modify(delta),
    view,
    edit,
    log: deps.log,
  });
  // Mirrors ask for this server's streams with a proof of the cluster key, not admin credentials.
  const origin = originHandlers(config, () => deps.view.snapshot);
  app.get(`${API}/cluster/streams`, origin.streams);
  if (deps.clusterIngest) app.get(`${API}/cluster/ingest`, deps.clusterIngest);
  if (deps.peers)
    registerPeerRoutes(app, { directory: deps.peers, config, snapshot: () => deps.view.snapshot, view });
  app.get(
    `${API}/events`,
    { websocket: true, onRequest: guard.require('view', { queryAuth: true }) },
    (socket, request) =>
      deps.hub.attach(socket, guard.access(request) !== 'edit', () => guard.stillGranted(request)),
  );
  if (deps.webrtcPublish) app.get(`${WEBRTC_PUBLISH_PATH}/*`, { websocket: true }, deps.webrtcPublish);
  // Prometheus scrapes: a view login, or the config's metrics_token (pulse/metrics-route.ts).
  registerMetrics(app, {
    view,
    token: () => deps.store.config.metrics_token,
    snapshot: () => deps.view.snapshot,
    system: deps.systemSampler,
  });

  // hls.js for the embed page (/{name}/embed.html, served with playback).
  const hlsScript = await loadHlsScript();
  app.get(HLS_SCRIPT_PATH, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'max-age=86400').send(hlsScript),
  );
  app.get('/', async (_req, reply) => reply.redirect('/admin'));
  await registerConsole(app, deps.consoleDir);
  app.setNotFoundHandler(async (request, reply) =>
    reply.status(404).send({ error: `no such path: ${request.url.split('?')[0]}` }),
  );
  return app;
}
