import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, basicAuth, type RunningServer, startServer, waitFor } from './harness.js';
import { call } from './security-auth-helpers.js';

const VIEW = { login: 'viewer', password: 'view-secret-pw' };
const config = `http {http};\nloglevel debug;\nedit_auth ${ADMIN.login} ${ADMIN.password};\nview_auth ${VIEW.login} ${VIEW.password};\n`;

/**
 * Routes anyone may call without a login. Every other route must refuse callers without
 * credentials. (Playback — HLS, MPEG-TS, embed pages — is answered before Fastify routes anything,
 * so it is not in the table; its own gate is tested in auth-playback.test.ts.)
 */
const PUBLIC = new Set([
  // The root redirects to the console; the console's page must load before anyone logs in.
  'GET /',
  'HEAD /',
  'GET /admin',
  'HEAD /admin',
  'GET /admin/*',
  'HEAD /admin/*',
  // Logging in and out (the Origin check still applies).
  'POST /admin/login',
  'POST /admin/logout',
  // Mirrors prove the cluster key instead of logging in (cluster/origin-handlers.ts).
  'GET /flussonic/api/cluster/streams',
  'HEAD /flussonic/api/cluster/streams',
  // Peers poll each other's figures with the same proof (cluster/peers/peer-routes.ts).
  'GET /flussonic/api/cluster/server',
  'HEAD /flussonic/api/cluster/server',
  // Cluster ingest asks peers who captures what, with the same proof (cluster/ingest/).
  'GET /flussonic/api/cluster/ingest',
  'HEAD /flussonic/api/cluster/ingest',
  // hls.js for the embed page, as public as the playback it serves.
  'GET /embed/hls.min.js',
  'HEAD /embed/hls.min.js',
  // WebRTC publish: the stream's publish password decides, at the offer (ingest/webrtc).
  'GET /webrtc/publish/*',
  'HEAD /webrtc/publish/*',
  // LetsEncrypt's HTTP-01 check has no credentials; only tokens of an order in progress answer.
  'GET /.well-known/acme-challenge/:token',
  'HEAD /.well-known/acme-challenge/:token',
  // IPTV playlists: the user's key is the credential; /tv/auth answers a token (iptv/iptv-routes.ts).
  'GET /tv/playlists/*',
  'HEAD /tv/playlists/*',
  'GET /tv/auth',
  'HEAD /tv/auth',
]);

/** Routes a view-only login may call; the rest need the edit login. */
const VIEW_ROUTES = new Set([
  'GET /flussonic/api/server',
  'GET /flussonic/api/read_config',
  'POST /flussonic/api/error/store',
  'GET /flussonic/api/media_info/*',
  'GET /flussonic/api/logo',
  'GET /flussonic/api/logo/:name',
  'GET /flussonic/api/history',
  'GET /flussonic/api/list_files',
  'GET /flussonic/api/events',
  'GET /flussonic/api/letsencrypt',
  'GET /letsencrypt',
  // Prometheus scrapes (pulse/metrics-route.ts): a view login, or the config's metrics_token.
  'GET /metrics',
  // Pulse ranges (pulse/pulse-http.ts): read by the Pulse board, view logins included.
  'GET /flussonic/api/pulse',
  // The IPTV page reads its state and users with a view login (keys hidden).
  'GET /tv/api/status',
  'GET /tv/api/users',
  // The cluster pages (cluster/peers/): figures and stream lists, no secret.
  'GET /flussonic/api/cluster_servers',
  // Ad show and view counts (ads/ad-stats.ts): what the ad injector page shows, no secret.
  'GET /flussonic/api/ad_streams',
  // The ad schedules (ads/schedule-api.ts): slots and VOD file names, no secret; saving needs edit.
  'GET /flussonic/api/fetch_ad_schedules',
]);
/** The console's own files (one route a file, under /admin/): public like its page. */
const isPublic = (route: string) => PUBLIC.has(route) || /^(GET|HEAD) \/admin\//.test(route);
const isViewRoute = (route: string) => VIEW_ROUTES.has(route.replace(/^HEAD /, 'GET '));

/** A concrete path for a route pattern: wildcards and parameters filled with names that exist nowhere. */
const fill = (url: string) => url.replace(/\*$/, 'no-such-stream').replace(/:[A-Za-z_]+/g, 'no-such-name');

describe('security: every route of the route table', () => {
  let server: RunningServer;
  let routes: string[] = [];
  beforeAll(async () => {
    server = await startServer({ config });
    // The server logs its route table at loglevel debug, one line a route, as it registers them.
    routes = await waitFor(() => {
      const found = [...server.output().matchAll(/ debug route ([A-Z]+) (\S+)$/gm)].map(
        (m) => `${m[1]} ${m[2]}`,
      );
      return found.includes('GET /flussonic/api/events') ? [...new Set(found)] : undefined;
    });
  });
  afterAll(() => server.cleanup());

  it('is read from the server itself and holds the calls of spec 000 §7', () => {
    for (const known of [
      'POST /admin/login',
      'GET /flussonic/api/server',
      'POST /flussonic/api/modify_config',
      'POST /flussonic/api/save_raw_config',
      'POST /flussonic/api/close_sessions',
      'GET /flussonic/api/events',
    ])
      expect(routes).toContain(known);
  });

  it('refuses callers without credentials (401), with wrong ones (401) and view-only ones on edit routes (403)', async () => {
    const failures: string[] = [];
    let n = 0;
    for (const route of routes.filter((r) => !isPublic(r))) {
      const [method, url] = route.split(' ') as [string, string];
      const body = ['POST', 'PUT', 'DELETE', 'PATCH'].includes(method) ? '[]' : undefined;
      const send = (authorization: string | undefined, from?: string) =>
        call(`${server.url}${fill(url)}`, {
          method,
          from,
          body,
          headers: {
            ...(authorization ? { authorization } : {}),
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
        });
      n++;
      // Each wrong guess from its own address and login: the failed-login backoff (429) is tested
      // in security-auth.test.ts; here every answer must be the refusal itself.
      const wrongFrom = `127.0.3.${(n % 250) + 1}`;
      const none = await send(undefined);
      const wrong = await send(basicAuth(`wrong-${n}`, 'wrong'), wrongFrom);
      const view = await send(basicAuth(VIEW.login, VIEW.password));
      if (none.status !== 401) failures.push(`${route} without credentials answered ${none.status}`);
      if (wrong.status !== 401) failures.push(`${route} with wrong credentials answered ${wrong.status}`);
      if (isViewRoute(route)) {
        if (view.status === 401 || view.status === 403 || view.status >= 500)
          failures.push(`${route} refused a view login: ${view.status}`);
      } else if (view.status !== 403) {
        failures.push(`${route} with a view login answered ${view.status}`);
      }
    }
    expect(failures).toEqual([]);
    expect(n).toBeGreaterThan(15);
  });

  it('answers the public routes without credentials and without a server error', async () => {
    for (const route of routes.filter(isPublic)) {
      const [method, url] = route.split(' ') as [string, string];
      const answer = await call(`${server.url}${fill(url)}`, { method });
      expect(answer.status, route).toBeLessThan(500);
    }
  });
});
