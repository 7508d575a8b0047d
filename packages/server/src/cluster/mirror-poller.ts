import { clusterStreamsAnswer, type MirrorServerStats } from '@sluice/api';
import { listUrl } from './mirror-plan.js';
import { CLUSTER_PROOF_HEADER, signClusterRequest } from './proof.js';

/** How often each origin url is asked for its streams. */
export const MIRROR_POLL_MS = 2000;
/** How long one ask may take before the url counts as down. */
export const MIRROR_POLL_TIMEOUT_MS = 3000;

/**
 * Asks every url of one mirror for the origin's stream list, over and over, keeping per url the
 * state the console shows (spec 000 §3 Mirror: name, error, stream_names). A url that fails keeps
 * the names of its last good answer, so its streams stay (and retry) while the origin is down.
 */
export class MirrorPoller {
  readonly servers: MirrorServerStats[];
  /** When each stream name was last listed by some url (ms since epoch). */
  private readonly lastListed = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** A first round has ended: `servers` says something (before it, nothing is shown). */
  polled = false;

  constructor(
    urls: readonly string[],
    private readonly clusterKey: string | undefined,
    private readonly onRound: (poller: MirrorPoller) => void,
    private readonly everyMs = MIRROR_POLL_MS,
  ) {
    this.servers = urls.map((name) => ({ name, error: 'connecting', stream_names: [] }));
  }

  /** Takes over the names another poller saw (the mirror's urls or key were edited): its streams stay while this one asks. */
  inherit(from: MirrorPoller): void {
    for (const [name, at] of from.lastListed) if (!this.lastListed.has(name)) this.lastListed.set(name, at);
  }

  start(): void {
    void this.round();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** Names some url lists now, or listed within the last `graceMs` (a stream gone from the origin lingers that long). */
  names(nowMs: number, graceMs: number): string[] {
    const out: string[] = [];
    for (const [name, at] of this.lastListed) {
      if (nowMs - at <= graceMs) out.push(name);
      else this.lastListed.delete(name);
    }
    return out;
  }

  private async round(): Promise<void> {
    await Promise.all(this.servers.map((server, i) => this.poll(i, server.name)));
    if (this.stopped) return;
    const now = Date.now();
    for (const server of this.servers) for (const name of server.stream_names) this.lastListed.set(name, now);
    this.polled = true;
    this.onRound(this);
    this.timer = setTimeout(() => void this.round(), this.everyMs);
  }

  private async poll(index: number, url: string): Promise<void> {
    const previous = this.servers[index]!;
    let next: MirrorServerStats;
    try {
      const names = await fetchStreamNames(url, this.clusterKey);
      next = { name: url, error: null, stream_names: names };
    } catch (error) {
      next = { name: url, error: (error as Error).message, stream_names: previous.stream_names };
    }
    this.servers[index] = next;
  }
}

/** One ask: the names the origin at `url` lists, or an error whose message is the reason shown ("error: <reason>"). */
export async function fetchStreamNames(url: string, clusterKey: string | undefined): Promise<string[]> {
  const target = new URL(listUrl(url));
  const headers: Record<string, string> = {};
  if (clusterKey) headers[CLUSTER_PROOF_HEADER] = signClusterRequest(clusterKey, target.pathname);
  let response: Response;
  try {
    response = await fetch(target, { headers, signal: AbortSignal.timeout(MIRROR_POLL_TIMEOUT_MS) });
  } catch (error) {
    throw new Error(networkReason(error), { cause: error });
  }
  const text = await response.text().catch(() => '');
  if (response.status === 401 || response.status === 403) {
    const why = errorText(text);
    throw new Error(
      clusterKey
        ? `cluster key rejected${why ? `: ${why}` : ''}`
        : `cluster key required${why ? `: ${why}` : ''}`,
    );
  }
  if (response.status === 404) throw new Error(`no Sluice origin there (HTTP 404 at ${target.pathname})`);
  if (!response.ok)
    throw new Error(`HTTP ${response.status}${errorText(text) ? `: ${errorText(text)}` : ''}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error('the origin answered something that is not JSON');
  }
  const parsed = clusterStreamsAnswer.safeParse(body);
  if (!parsed.success) throw new Error('the origin answered an unexpected stream list');
  return parsed.data.streams.map((s) => s.name);
}

function errorText(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    return typeof body.error === 'string' ? body.error : '';
  } catch {
    return '';
  }
}

/** fetch's failures in an operator's words: "connection refused", "timeout", "host not found"… */
export function networkReason(error: unknown): string {
  const e = error as Error & { cause?: Error & { code?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timeout';
  const code = e.cause?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ECONNRESET':
      return 'connection reset';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
      return 'timeout';
    default:
      return e.cause?.message ?? e.message;
  }
}
