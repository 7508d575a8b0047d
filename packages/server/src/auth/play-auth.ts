import { authBackendName, authTypeOf, type Config, type Mirror, SECURETOKEN_PREFIX } from '@sluice/api';
import { NonceMemory, verifyClusterRequest } from '../cluster/proof.js';
import type { Logger } from '../support/log.js';
import { type Auth, authFor } from './auth-source.js';
import { checkAuthBackend } from './backend-rules.js';
import { DecisionCache } from './decision-cache.js';
import type { GeoIp } from './geoip.js';
import { askBackend } from './http-backend.js';
import { allow, deny, type PlayRequest, type Verdict } from './play-request.js';
import { checkSecureToken } from './securetoken.js';

export interface PlayAuthDeps {
  config: () => Config;
  geo: GeoIp;
  log: Logger;
  /** The console players' token: plays anything (still a session). */
  isAdminToken: (token: string | undefined) => boolean;
  /** The mirror a mirrored stream runs under (its auth governs the stream). */
  mirrorOf?: (name: string) => Mirror | undefined;
  /** The IPTV plugin's user store (iptv/iptv-plugin.ts): the iptv auth type asks it in process. */
  iptv?: { check(token: string | undefined): Decision; readonly revision: string };
}

/**
 * What a request may do; `admin` requests are also exempt from max_sessions. `perUser`: the
 * viewer's own session limit across all streams (an IPTV user's max_sessions, auth/play-gate.ts).
 */
export type Decision = Verdict & { admin?: boolean; perUser?: PerUserLimit };
export interface PerUserLimit {
  userId: string;
  /** null: no limit. */
  maxSessions: number | null;
}

/** The iptv auth type's urls: `…/tv/auth` (authTypeOf), or the spec's `{address}` placeholder. */
const isIptvUrl = (url: string) => authTypeOf(url) === 'iptv' || url.includes('{address}');

/**
 * The one place play (and publish) authorization is decided, for every playback path: HLS,
 * MPEG-TS, DASH, RTMP play, previews, and RTMP and WebRTC publish. The rules, in order (docs/api.md "Play authorization"):
 * the admin token; allowed domains (Referer host); allowed or disallowed countries; then the auth
 * url (custom HTTP backend, auth://NAME, securetoken://SECRET). max_sessions is counted where the
 * session opens (delivery/client-sessions.ts).
 */
export class PlayAuth {
  private readonly cache = new DecisionCache();
  /** Backend questions under way, so requests arriving together ask once. */
  private readonly asking = new Map<string, Promise<Verdict>>();
  /** Cluster proofs already used: each lets one request through. */
  private readonly nonces = new NonceMemory();

  constructor(private readonly deps: PlayAuthDeps) {}

  /** auth.max_sessions of whatever governs the stream (a mirrored stream's spec does not carry it). */
  maxSessions(name: string): number | undefined {
    return authFor(this.deps.config(), name, this.deps.mirrorOf)?.max_sessions;
  }

  /** Answers at once when no backend needs asking (and for cached answers). */
  check(request: Omit<PlayRequest, 'country'>): Decision | Promise<Decision> {
    if (this.deps.isAdminToken(request.token)) return { allow: true, admin: true };
    if (request.cluster) {
      // A mirror of this server pulling the stream, proving the cluster key: not a viewer.
      const proof = verifyClusterRequest(
        request.cluster,
        this.deps.config().cluster_key,
        Date.now(),
        this.nonces,
      );
      if (proof.ok) return { allow: true, admin: true };
      this.deps.log.notice(
        `cluster pull of ${request.name} from ${request.ip} not accepted: ${proof.reason}`,
      );
    }
    const settings = authFor(this.deps.config(), request.name, this.deps.mirrorOf);
    if (!settings) return allow();
    const full: PlayRequest = { ...request, cluster: undefined, country: this.deps.geo.country(request.ip) };
    const early = request.requestType === 'play' ? domainVerdict(settings, full.referer) : undefined;
    const refused = early ?? countryVerdict(settings, full.country);
    if (refused) return this.logged(full, refused);
    const url = settings.url?.trim();
    if (!url) return allow();
    const now = Date.now();
    // IPTV answers are forgotten at every user edit: a deleted user is refused at the next re-check.
    const key = isIptvUrl(url) ? `${cacheKey(full)}\0iptv ${this.deps.iptv?.revision}` : cacheKey(full);
    const cached = this.cache.get(key, settings, now);
    if (cached) return cached;
    const pending = this.asking.get(key);
    if (pending) return pending;
    const answer = this.ask(url, full, settings.extra ?? {});
    if (!(answer instanceof Promise)) {
      // Answers made here (iptv: a store lookup) are kept per session too; others are free to make again.
      if (isIptvUrl(url)) this.cache.set(key, settings, answer, now);
      return this.logged(full, answer);
    }
    const decided = answer.then((verdict) => {
      this.asking.delete(key);
      this.cache.set(key, settings, verdict, Date.now());
      return this.logged(full, verdict);
    });
    this.asking.set(key, decided);
    return decided;
  }

  private ask(
    url: string,
    request: PlayRequest,
    extra: Readonly<Record<string, unknown>>,
  ): Verdict | Promise<Verdict> {
    const problem = (text: string) => this.deps.log.notice(`auth of ${request.name}: ${text}`);
    // The url shapes the console writes (@sluice/api auth-url.ts).
    const backendName = authBackendName(url);
    if (backendName !== undefined) {
      const backend = this.deps.config().auth_backends?.[backendName];
      if (!backend) return deny(`auth backend ${backendName} is not configured`);
      return checkAuthBackend(backendName, backend, request, askBackend, problem);
    }
    if (isIptvUrl(url))
      return this.deps.iptv ? this.deps.iptv.check(request.token) : deny('IPTV is not configured');
    const type = authTypeOf(url);
    if (type === 'securetoken') {
      const secret = url.slice(SECURETOKEN_PREFIX.length);
      const wrong = checkSecureToken(secret, request.name, request.ip, request.token, Date.now());
      return wrong ? deny(wrong) : allow();
    }
    if (type === 'vsaas')
      return deny('vsaas auth needs the Watcher (vsaas) plugin, which Sluice does not have');
    // custom and stalker: an HTTP backend.
    if (!/^https?:\/\//.test(url)) return deny(`auth url ${url} is not a kind Sluice knows`);
    return askBackend(url, request, extra).then((answer) => {
      if (answer.answer === 'allow') return allow({ userId: answer.userId, ttlMs: answer.ttlMs });
      if (answer.answer === 'deny') return deny('the auth backend denied', answer.ttlMs);
      problem(answer.problem);
      // A backend that fails is asked again soon rather than after the full answer time.
      return { ...deny(`the auth backend gave no answer (${answer.problem})`, 5000), failed: true };
    });
  }

  private logged(request: PlayRequest, verdict: Verdict): Verdict {
    if (!verdict.allow)
      this.deps.log.notice(
        `${request.requestType} ${request.proto} ${request.name} from ${request.ip} denied: ${verdict.reason}`,
      );
    return verdict;
  }
}

/** auth.domains: the Referer's host must be one of them (`*.example.com` takes its subdomains). */
function domainVerdict(settings: Auth, referer: string | undefined): Verdict | undefined {
  const domains = settings.domains?.filter((d) => d.trim() !== '') ?? [];
  if (domains.length === 0) return undefined;
  let host: string;
  try {
    host = new URL(referer ?? '').hostname.toLowerCase();
  } catch {
    return deny('allowed domains are set and the request has no Referer');
  }
  const ok = domains.some((d) => {
    const domain = d.trim().toLowerCase();
    return domain.startsWith('*.') ? host.endsWith(domain.slice(1)) : host === domain;
  });
  return ok ? undefined : deny(`referer host ${host} is not an allowed domain`);
}

/** allowed_countries / disallowed_countries against the client's country ('' unknown). */
function countryVerdict(settings: Auth, country: string): Verdict | undefined {
  const allowed = settings.allowed_countries ?? [];
  if (allowed.length > 0 && !allowed.includes(country))
    return deny(`country ${country || 'unknown'} is not an allowed country`);
  if ((settings.disallowed_countries ?? []).includes(country))
    return deny(`country ${country} is a disallowed country`);
  return undefined;
}

/**
 * One answer per session, as delivery/client-sessions.ts tells sessions apart (a token, else the
 * user agent), and per address: a token passed on to another address is asked about again.
 */
function cacheKey(r: PlayRequest): string {
  return [r.name, r.proto, r.requestType, r.ip, r.token ? `t\0${r.token}` : `u\0${r.userAgent}`].join('\0');
}
