#!/usr/bin/env node
import { mkdir, readFile, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Config, type ServerInfo } from '@sluice/api';
import { buildApp } from './app.js';
import { parseArgs } from './cli.js';
import { defaultConfigText, randomPassword } from './config/defaults.js';
import { writeFileDurably } from './config/durable-write.js';
import { ConfigRejected } from './config/errors.js';
import { unservedDirectiveNotes } from './config/unserved-directives.js';
import { EXIT_LOCKED, InstanceLocked, takeInstanceLock } from './config/instance-lock.js';
import { CONFIG_REVISION_KEY, ConfigStore, scopedDiff } from './config/store.js';
import { ownerMark } from './engine/ffmpeg/leftovers.js';
import { SessionRegistry } from './http/auth.js';
import { ErrorReportLog, errorReportFileOf } from './http/error-reports.js';
import { EventsHub } from './http/events-hub.js';
import { PortRoles } from './http/port-roles.js';
import { WebListeners } from './http/web-listeners.js';
import { CertificateStore, tlsDirOf } from './tls/certificate-store.js';
import { LETSENCRYPT_DIRECTORY, trustAcmeCa } from './letsencrypt/acme-order.js';
import { LetsEncrypt } from './letsencrypt/letsencrypt.js';
import { TopicBus } from './http/topics.js';
import { LiveView } from './live/live-view.js';
import { DRM_APPLIED } from './drm/aes128.js';
import { startMedia } from './media-services.js';
import { probeTranscoderDevices } from './transcoder/devices.js';
import { LogoStore, logoDirOf } from './transcoder/logo-store.js';
import { serverStats, type StreamCounts, streamCounts } from './stats/server-stats.js';
import { sampledPaths } from './pulse/sampled-paths.js';
import { SystemSampler } from './pulse/system-samplers.js';
import { certificateExpiryNotice } from './health/certificate-expiry.js';
import { DiskNotices } from './health/disk-notices.js';
import { ffmpegHealth } from './health/ffmpeg-health.js';
import { statsWrites } from './health/stats-writes.js';
import { WebScripts } from './web-scripts/web-scripts.js';
import { NvidiaMonitor } from './nvidia/nvidia-monitor.js';
import { SnmpAgent } from './snmp/snmp-agent.js';
import { snmpFigures } from './snmp/snmp-figures.js';
import { LocalServer } from './cluster/peers/local-server.js';
import { PeerDirectory } from './cluster/peers/peer-directory.js';
import { loadRedirect } from './cluster/peers/load-redirect.js';
import { createLogger } from './support/log.js';
import { supportKeyFiles } from './diagnostics/ssh-key.js';
import { SshTunnel } from './diagnostics/ssh-tunnel.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The config keys of the web ports (http/web-listeners.ts). */
const WEB_PORT_KEYS = ['http', 'https', 'admin_http', 'admin_https'] as const;
const packageRoot = join(here, '..');

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2), { consoleDir: join(packageRoot, '..', 'web', 'dist') });
  const log = createLogger();
  keepServingOnUncaughtErrors(log);
  const { version } = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as {
    version: string;
  };
  const build = Number(process.env.SLUICE_BUILD ?? 0) || 0;

  // Before anything starts: a second server on this config would kill the first one's ffmpegs.
  try {
    await takeInstanceLock(resolve(options.configPath), ownerMark(resolve(options.configPath)));
  } catch (error) {
    if (!(error instanceof InstanceLocked)) throw error;
    log.error(error.message);
    process.exit(EXIT_LOCKED);
  }
  const created = await ensureConfig(options.configPath);
  const store = new ConfigStore(options.configPath, join(dirname(options.configPath), 'history'));
  try {
    await store.load();
  } catch (error) {
    if (error instanceof ConfigRejected) {
      log.error(`${options.configPath}: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  log.setLevel(store.config.loglevel);
  for (const note of unservedDirectiveNotes(store.config)) log.notice(note);

  const view = new LiveView();
  view.applyDiff(store.config);
  // The revision every save can name (If-Match): in read_config and the events socket's answers.
  view.set([CONFIG_REVISION_KEY], store.revision);
  const hub = new EventsHub(view);
  // `config_saved` tells subscribed consoles at once that the config was written.
  const topics = new TopicBus(['config_saved']);
  hub.handle(
    'subscribe:',
    (topic, client) => {
      const result = topics.subscribe(topic, client);
      if (typeof result === 'string') client.send({ event: 'error', message: result });
      else return result;
    },
    'unsubscribe:',
  );
  // Kept beside the config so a console stays logged in across a restart (its cookie holds no password).
  const sessions = new SessionRegistry({ file: join(dirname(options.configPath), 'sessions.json') });
  const errorReports = new ErrorReportLog(errorReportFileOf(resolve(options.configPath)), (line) =>
    log.error(line),
  );
  const startedAt = Date.now();
  // Made once the app is ready; the notices read it before.
  const web: { listeners?: WebListeners } = {};
  const portRoles = new PortRoles();
  const host = hostname();

  // The one TLS certificate of every TLS port (HTTPS, RTMPS, RTSPS), beside the config; self-signed
  // at first start. Handed to the media side (RTMPS/RTSPS) and the app (/letsencrypt, server info).
  const certificates = await CertificateStore.open({
    dir: tlsDirOf(resolve(options.configPath)),
    hostname: store.config.hostname ?? host,
    log,
  });
  // Certificates ordered from LetsEncrypt (or the ACME CA `letsencrypt_directory` names), renewed here.
  await trustAcmeCa(process.env.SLUICE_ACME_CA_FILE);
  const letsencrypt = await LetsEncrypt.open({
    certificates,
    dir: tlsDirOf(resolve(options.configPath)),
    directoryUrl: () => store.config.letsencrypt_directory ?? LETSENCRYPT_DIRECTORY,
    log,
  });
  letsencrypt.startRenewal();

  // Probed once at start: devices don't come and go while the server runs.
  const transcoderDevices = await probeTranscoderDevices();
  // The machine, its disks and this process (CPU with its ffmpeg children): Pulse and /metrics.
  const configPaths = sampledPaths(options.configPath);
  const systemSampler = new SystemSampler({ paths: () => configPaths(store.config) });
  const media = await startMedia({
    view,
    hub,
    log,
    config: store.config,
    sampler: systemSampler,
    configPath: resolve(options.configPath),
    host: options.host,
    ffmpegPath: process.env.SLUICE_FFMPEG,
    secureContext: () => certificates.secureContext(),
  });

  const serverInfo = (): ServerInfo => ({
    product: 'sluice',
    version,
    build,
    hostname: store.config.hostname ?? host,
    chassis: false,
    capabilities: { url_publish: true, outputs: media.outputs, drm_applied: [...DRM_APPLIED] },
    // Server info is answered only to callers with credentials (app.ts): the players' token.
    admin_token: media.adminToken(),
    transcoder_devices: transcoderDevices,
    // Public facts only (no key): view-only callers see it too.
    certificate: { ...certificates.info() },
  });
  const nvidia = new NvidiaMonitor({ log });
  // The `snmp` port: the stats API's figures over SNMP v2c (snmp/).
  const snmpAgent = new SnmpAgent({
    figures: () => snmpFigures(view.snapshot, systemSampler.latest),
    log,
    host: options.host,
  });
  // Health notices (health/): partitions past 95 %, ffmpeg missing or crashing, a refused reload.
  const disks = new DiskNotices(() => configPaths(store.config));
  const reload: { refused?: string } = {};
  const webScripts = new WebScripts(dirname(resolve(options.configPath)));
  await webScripts.apply(store.config);
  const warnings = (): Record<string, string> => ({
    ...disks.notices(),
    ...ffmpegHealth.notices(),
    ...(reload.refused ? { error_config_reload: reload.refused } : {}),
    ...certificateExpiryNotice(certificates.info()),
    ...media.sessionLogNotices(),
    ...webScripts.notices(),
    ...snmpAgent.notices(),
    // An archive that can't be written (dvr/): a header notice besides the stream's stats.
    ...media.dvr.notices(),
    // A certificate file refused (the previous one serves on), a web port that can't be bound.
    ...certificates.notices(),
    ...letsencrypt.notices(),
    ...web.listeners?.notices(),
    ...media.portNotices(),
    // A pulsedb that can't be written (collection goes on in memory), too many series.
    ...media.pulse.notices(),
    // etcd out of reach: cluster ingest leases frozen (cluster/ingest/).
    ...media.ingest.notices(),
    ...(store.config.edit_auth
      ? {}
      : { error_no_edit_auth: 'edit_auth is not set in the config: nobody can log in.' }),
  });
  let counts: StreamCounts | undefined;
  /** `recount` false (an edit that added and removed no stream): the last counts stand, no walk of every stream. */
  // Key by key: a notice that went reaches open consoles as a null (health/stats-writes.ts).
  const setStats = (stats: Record<string, unknown>) => view.setMany(statsWrites(view.snapshot.stats, stats));
  const refreshStats = (recount = true) => {
    if (recount || !counts) counts = streamCounts(store.config, view.snapshot);
    setStats(
      // nvidia_monitor's cards (or 'no NVIDIA GPU') beside the figures while the switch is on.
      nvidia.into(
        serverStats(
          store.config,
          view.snapshot,
          {
            version,
            build,
            hostname: store.config.hostname ?? host,
            startedAt,
            errors: warnings,
            traffic: () => ({ ...media.engine.traffic(), openedFiles: media.openedFiles() }),
            pulse: () => media.pulse.state(),
          },
          counts,
        ),
      ),
    );
  };
  refreshStats();
  // Cluster peers (cluster/peers/): each `peer` polled for its figures and streams; what this server tells them.
  const peers = new PeerDirectory(
    new LocalServer({
      config: () => store.config,
      snapshot: () => view.snapshot,
      sampler: systemSampler,
      ingestHere: (name) => media.ingest.capturesHere(name),
    }),
    log,
  );
  peers.apply(store.config);
  // Over total_bandwidth: a new viewer is sent to the least-loaded peer that has the stream.
  const redirect = loadRedirect(
    peers,
    () => store.config,
    () => view.snapshot,
  );

  const supportTunnel = new SshTunnel(() => store.config.support_ssh, log, {
    keyFiles: supportKeyFiles(dirname(resolve(options.configPath))),
    // The console's port (an admin port when set): support reaches the console through the tunnel.
    consolePort: () => {
      const bound = web.listeners?.bound();
      return bound?.admin_http[0] ?? bound?.http[0];
    },
  });
  const app = await buildApp({
    log,
    store,
    view,
    hub,
    sessions,
    errorReports,
    serverInfo,
    consoleDir: options.consoleDir,
    engine: media.engine,
    // Playback, then WHIP publishing (POST /{name}/whip …) and WHEP playback: all on the plain request path.
    playback: (req, res) =>
      redirect(req, res) ||
      media.playback(req, res) ||
      media.whip(req, res) ||
      media.whep(req, res) ||
      // web_script folders last: a stream's or a VOD's URL is never shadowed (web-scripts/).
      webScripts.handle(req, res),
    closeSessions: media.closeSessions,
    logos: new LogoStore(logoDirOf(resolve(options.configPath))),
    history: media.history,
    pulse: media.pulse.rangeHandler,
    webrtcPublish: media.webrtcPublish,
    portRoles,
    certificates,
    // Where https_redirect sends a console request: the HTTPS port of the same kind (public/admin).
    httpsPort: (req) => web.listeners?.httpsPortFor(req),
    letsencrypt,
    systemSampler,
    iptv: media.iptv,
    peers,
    clusterIngest: media.ingest.handler,
    adStreams: () => media.ads.stats.snapshot(),
    // Log upload page (diagnostics/): the bundle's parts, support_url, the support_ssh tunnel.
    support: {
      sources: {
        config: () => store.config,
        snapshot: () => view.snapshot as Record<string, unknown>,
        serverInfo: () => {
          const { admin_token: _token, ...info } = serverInfo();
          return info;
        },
        recentLog: (since) => log.recent(since),
        errorReports: () => errorReports.stored(),
      },
      supportUrl: () => store.config.support_url,
      tunnel: supportTunnel,
      log,
    },
  });
  await app.ready();
  const listeners = new WebListeners({
    app: app.server,
    roles: portRoles,
    certificates,
    host: options.host,
    log,
  });
  web.listeners = listeners;

  store.onChange((next: Config, previous: Config, scope) => {
    const delta = scopedDiff(previous, next, scope);
    if (delta !== undefined) view.applyDiff(delta);
    // Set after the change, so a delta that carries the new revision carries the change too.
    view.set([CONFIG_REVISION_KEY], store.revision);
    topics.publish('config_saved', { event: 'config_saved', at: Date.now() });
    // Saved (the console, the API or a reload): the file and the running config agree again.
    reload.refused = undefined;
    void webScripts.apply(next);
    log.setLevel(next.loglevel);
    for (const note of unservedDirectiveNotes(next, previous)) log.notice(note);
    // The engine reconciles after the call is answered: the change is durable and in the view
    // already, and starting or stopping streams must not hold up the console's save.
    setImmediate(() => void media.apply(next, scope));
    peers.apply(next);
    // The support tunnel goes to the host the operator consented to: another host (or none) ends it.
    if (next.support_ssh !== previous.support_ssh) supportTunnel.disable();
    snmpAgent.apply(next);
    nvidia.apply(next);
    if (JSON.stringify(next.edit_auth) !== JSON.stringify(previous.edit_auth)) sessions.clear();
    // An events socket opened with the old credentials (or a session they ended) closes now.
    if (
      JSON.stringify(next.edit_auth) !== JSON.stringify(previous.edit_auth) ||
      JSON.stringify(next.view_auth) !== JSON.stringify(previous.view_auth)
    )
      setImmediate(() => hub.recheck());
    if (WEB_PORT_KEYS.some((k) => JSON.stringify(next[k]) !== JSON.stringify(previous[k])))
      void listeners.reconcile(next).then(() => refreshStats());
    refreshStats(!scope || scope.get('streams') === 'all');
  });
  const ticker = setInterval(() => refreshStats(), 1000);
  await media.apply(store.config);
  snmpAgent.apply(store.config);
  nvidia.apply(store.config);

  const open = await listeners.reconcile(store.config);
  const consolePorts = Object.values(open).flat();
  if (consolePorts.length === 0) log.error('no HTTP port is open: add `http PORT;` to the config');
  printWelcome(open, options.configPath, store.config, created);

  const shutdown = async (signal: string) => {
    log.notice(`${signal}: stopping`);
    clearInterval(ticker);
    disks.close();
    webScripts.close();
    peers.close();
    snmpAgent.close();
    nvidia.close();
    supportTunnel.disable();
    await media.close();
    await listeners.close();
    certificates.close();
    letsencrypt.close();
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  // SIGHUP re-reads a config file edited by hand, like nginx; a broken file is refused and the running config kept.
  process.on('SIGHUP', () => {
    readFile(options.configPath, 'utf8')
      .then((text) => (text === store.rawText ? undefined : store.saveRaw(text)))
      .then(() => {
        reload.refused = undefined;
        log.notice('config reloaded');
      })
      .catch((error: Error) => {
        reload.refused = `Config reload (SIGHUP) refused, the running config is kept: ${error.message}`;
        log.error(`config reload refused, the running config is kept: ${error.message}`);
      })
      .finally(() => refreshStats());
  });
}

/**
 * The last resort: an error that no handler caught (a bug, or input a parser did not expect) is
 * logged with its stack and the server keeps serving. Without it, one such error, which anyone
 * who can reach a port may be able to cause, ends every stream, the API and the console at once.
 * Every path still handles its own errors first (the RTMP listener ends just that connection).
 */
function keepServingOnUncaughtErrors(log: { error(message: string): void }): void {
  const describe = (what: string, error: unknown) => {
    // The message may carry a peer's text: written escaped on one line, then the stack frames.
    const message = JSON.stringify(error instanceof Error ? error.message : String(error));
    const frames = (error instanceof Error ? (error.stack ?? '') : '')
      .split('\n')
      .filter((l) => /^\s+at /.test(l));
    log.error([`${what}, the server keeps running: ${message}`, ...frames].join('\n'));
  };
  process.on('uncaughtException', (error) => describe('uncaught exception', error));
  process.on('unhandledRejection', (reason) => describe('unhandled promise rejection', reason));
}

/** Writes the default config when the file is missing; returns the new admin password if it did. */
async function ensureConfig(path: string): Promise<string | undefined> {
  const exists = await stat(path).then(
    () => true,
    () => false,
  );
  if (exists) return undefined;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const password = randomPassword();
  await writeFileDurably(path, defaultConfigText(password));
  return password;
}

function printWelcome(
  open: { http: number[]; https: number[]; admin_http: number[]; admin_https: number[] },
  configPath: string,
  config: Config,
  newPassword: string | undefined,
): void {
  const lines = [`Sluice is running with ${configPath}`];
  // With admin ports set, the console is served there only (http/port-roles.ts).
  const admin = open.admin_http.length + open.admin_https.length > 0;
  for (const port of admin ? open.admin_http : open.http)
    lines.push(`  Console: http://localhost:${port}/admin`);
  for (const port of admin ? open.admin_https : open.https)
    lines.push(`  Console: https://localhost:${port}/admin`);
  if (newPassword) {
    lines.push(
      `  A new config was written. Log in as "${config.edit_auth?.login}" with password: ${newPassword}`,
    );
    lines.push('  (shown only this once; it is stored in the config file as edit_auth)');
  } else if (config.edit_auth) {
    lines.push(
      `  Log in as "${config.edit_auth.login}" with the password set by edit_auth in the config file.`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
