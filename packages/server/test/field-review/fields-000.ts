import { applied, notApplied, type Review } from './review.js';

const NO_WATCHER =
  'Sluice runs no Watcher and no streampoint reverse proxy: the settings are kept for a Watcher elsewhere (docs/config.md plugin)';

/** Spec 000: the global settings, the plugins, peers and web scripts. */
export const GLOBAL_FIELDS: Record<string, Review> = {
  http: applied('admin-ports.test.ts', 'the public port plays and answers 404 for the console and the API'),
  https: applied(
    'https-listeners.test.ts',
    'serves the console, the API, the events websocket and HLS playback over TLS',
  ),
  admin_http: applied(
    'admin-ports.test.ts',
    'the admin ports serve the console and the API (HTTP and HTTPS)',
  ),
  admin_https: applied(
    'admin-ports.test.ts',
    'the admin ports serve the console and the API (HTTP and HTTPS)',
  ),
  hsts_max_age_seconds: applied('transport-security.test.ts', 'sends HSTS over HTTPS only'),
  https_redirect: applied(
    'transport-security.test.ts',
    'with https_redirect, sends the console and API to the HTTPS port',
  ),
  letsencrypt_directory: applied(
    'letsencrypt.test.ts',
    'obtains a certificate and serves it on the HTTPS port',
  ),
  rtmp: applied(
    'media-publish.test.ts',
    'takes a publisher with the right password into the configured stream',
  ),
  rtmps: applied('tls-media.test.ts', 'ffmpeg publishes over rtmps:// with the stream password'),
  rtsp: applied('rtsp-clients.test.ts', 'ffmpeg plays over TCP and over UDP'),
  rtsps: applied('tls-media.test.ts', 'ffmpeg plays over rtsps:// (TCP interleaved)'),
  mysql: notApplied(
    'no maintained MySQL wire-protocol server library makes it honest: the directive is kept and logged as not applied, the Settings tab no longer shows it',
  ),
  snmp: applied('snmp.test.ts', 'snmpget answers the server counters of the stats API'),
  snmp_community: applied('snmp.test.ts', 'ignores a request with a wrong community (no answer at all)'),
  api: notApplied(
    'the API is served on the HTTP ports (and admin ports); no port of its own is opened, and the console shows no field for it',
  ),
  // At debug the server logs its route table, which that test reads back from the log.
  loglevel: applied(
    'security-routes.test.ts',
    'is read from the server itself and holds the calls of spec 000 §7',
  ),
  support_url: applied(
    'support-sendlogs.test.ts',
    'sends a bundle with config, stats, log and error reports',
  ),
  // A real sshd as the support host: the tunnel runs and carries HTTP to the console.
  support_ssh: applied(
    'support-ssh-tunnel.test.ts',
    'is refused until support has the server key, then runs and carries HTTP to the console',
  ),
  cluster_key: applied('mirror-cluster.test.ts', 'a server without cluster_key answers no peer'),
  metrics_token: applied(
    'pulse-metrics.test.ts',
    'a view login and the scrape token may read it; nobody else',
  ),
  hostname: applied(
    'src/cluster/ingest/ingest-wire.test.ts',
    'names a server by hostname and first HTTP port',
  ),
  'edit_auth.login': applied(
    'security-lockout.test.ts',
    'refuses a hand-edited file without edit_auth on SIGHUP',
  ),
  'edit_auth.password': applied(
    'security-lockout.test.ts',
    'refuses a hand-edited file without edit_auth on SIGHUP',
  ),
  'view_auth.login': applied('config-api.test.ts', 'lets view_auth read but not change'),
  'view_auth.password': applied('config-api.test.ts', 'lets view_auth read but not change'),
  // The server's own meta is the operator's note; its effect is to be shown back as it was saved.
  'meta.comment': applied('e2e/key-value-typing.spec.ts', 'the global Meta editor keeps typing the same way'),
  // drm_id and iptv act on streams; in the server's own meta they are free keys of the Meta editor.
  'meta.drm_id': notApplied('the server has no DRM of its own: drm_id acts in a stream’s or location’s meta'),
  'meta.iptv': notApplied('the IPTV playlist lists streams by their own meta.iptv'),
  nvidia_monitor: applied(
    'e2e/chassis-nvidia.spec.ts',
    'a normal server: the menu has no Chassis, the page says it is not one, and no NVIDIA GPU is shown',
  ),
  pulsedb: applied('pulse-collection.test.ts', 'a pulsedb that cannot be written is a header notice'),
  session_log: applied('history-sessions.test.ts', 'keeps the log in the session_log folder'),
  session_log_days: applied(
    'src/history/session-log.test.ts',
    'deletes sessions older than session_log_days',
  ),
  session_log_max_mb: applied(
    'src/history/session-log.test.ts',
    'past session_log_max_mb deletes the oldest sessions',
  ),
  max_sessions_per_ip: applied(
    'security-sessions-flood.test.ts',
    'gives sessions to the first 100 (max_sessions_per_ip)',
  ),
  session_idle_seconds: applied(
    'src/delivery/client-sessions.test.ts',
    'ends a quiet session after the idle time the config gives',
  ),
  mirror_poll_seconds: applied(
    'mirror-modes.test.ts',
    'a stream deleted on the origin goes from the mirror after the grace period',
  ),
  peer_poll_seconds: applied(
    'src/cluster/peers/peer-poll-interval.test.ts',
    'polls a peer every peer_poll_seconds',
  ),
  cluster_ingest_poll_seconds: applied(
    'src/cluster/ingest/ingest-poll-interval.test.ts',
    'asks each peer for its ingest state every cluster_ingest_poll_seconds',
  ),
  cluster_etcd: applied('cluster-ingest-etcd.test.ts', 'the lease holder alone captures'),
  cluster_lease_seconds: applied(
    'cluster-ingest-etcd.test.ts',
    'a holder cut from etcd and its peers stops; another takes the lease',
  ),
  geoip_overrides: applied('auth-rules.test.ts', 'geoip_overrides gives 127.0.0.1 a country'),
  total_bandwidth: applied('cluster-peers.test.ts', 'over its total_bandwidth, A sends a new viewer (302)'),
  'peers.*.name': applied('cluster-peers.test.ts', 'each server sees the other two with live figures'),
  'peers.*.port': applied('cluster-peers.test.ts', 'each server sees the other two with live figures'),
  'peers.*.position': applied('e2e/cluster.spec.ts', 'Settings: hostname, cluster key, and peers saved'),
  'plugins.iptv.database': applied('iptv.test.ts', 'creates, lists, filters, updates and deletes users'),
  'plugins.vsaas.database': notApplied(NO_WATCHER, 'watcher/WatcherPage.tsx'),
  'plugins.vsaas.endpoint': notApplied(NO_WATCHER),
  'plugins.rproxy.endpoint_auth': notApplied(NO_WATCHER),
  'plugins.rproxy.streampoint_key': notApplied(NO_WATCHER),
  'web_scripts.*.prefix': applied(
    'web-scripts.test.ts',
    'serves the folder at its prefix, and extra as web_script.json',
  ),
  'web_scripts.*.path': applied(
    'web-scripts.test.ts',
    'serves the folder at its prefix, and extra as web_script.json',
  ),
  'web_scripts.*.extra': applied(
    'web-scripts.test.ts',
    'serves the folder at its prefix, and extra as web_script.json',
  ),
  'web_scripts.*.position': applied(
    'e2e/global-settings.spec.ts',
    'drops an emptied web script row on blur and keeps one empty row at the bottom',
  ),
};
