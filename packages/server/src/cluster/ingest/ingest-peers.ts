import { networkReason } from '../mirror-poller.js';
import { CLUSTER_PROOF_HEADER, signClusterRequest } from '../proof.js';
import { INGEST_STATE_MAX_BYTES, INGEST_STATE_PATH, type IngestState, ingestState } from './ingest-wire.js';

/** One configured peer as the last ask found it. */
export interface IngestPeer {
  /** Its base URL, from the `peer` line: where its streams are pulled from. */
  url: string;
  /** Its last answer, while it answers; undefined while it is down (or never answered). */
  state: IngestState | undefined;
  /** Why the last ask failed. */
  error: string | undefined;
}

/**
 * Asks every `peer` for its ingest state every `everyMs`, each ask bounded by `timeoutMs`, and
 * calls `onRound` after each round (every peer answered or failed). A peer is live while its last
 * ask succeeded: a killed server refuses the next connection, so it is seen gone within one round.
 * This is the fast liveness cluster ingest needs (1 s by default); peers/ polls figures slower.
 */
export class IngestPeers {
  readonly peers: IngestPeer[];
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** A first round has ended: until then no peer is known and nothing is decided. */
  ready = false;
  /** The next round comes this soon instead of everyMs (a switch waits on a peer's word). */
  private soonMs: number | undefined;

  constructor(
    urls: readonly string[],
    private readonly clusterKey: string | undefined,
    private readonly everyMs: number,
    private readonly onRound: () => void | Promise<void>,
  ) {
    this.peers = urls.map((url) => ({ url, state: undefined, error: 'connecting' }));
  }

  start(): void {
    void this.round();
  }

  /** Asks again in `ms` rather than at the usual interval, once. */
  soon(ms: number): void {
    this.soonMs = Math.min(ms, this.soonMs ?? ms);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private async round(): Promise<void> {
    const timeoutMs = Math.max(500, Math.min(this.everyMs, 2000));
    await Promise.all(this.peers.map((peer) => this.ask(peer, timeoutMs)));
    if (this.stopped) return;
    this.ready = true;
    await this.onRound();
    if (this.stopped) return;
    const next = Math.min(this.everyMs, this.soonMs ?? this.everyMs);
    this.soonMs = undefined;
    this.timer = setTimeout(() => void this.round(), next);
  }

  private async ask(peer: IngestPeer, timeoutMs: number): Promise<void> {
    try {
      peer.state = await fetchIngestState(peer.url, this.clusterKey, timeoutMs);
      peer.error = undefined;
    } catch (error) {
      peer.state = undefined;
      peer.error = (error as Error).message;
    }
  }
}

/** One ask of the peer at `baseUrl`, or an error saying why not in an operator's words. */
export async function fetchIngestState(
  baseUrl: string,
  clusterKey: string | undefined,
  timeoutMs: number,
): Promise<IngestState> {
  const target = new URL(INGEST_STATE_PATH, baseUrl);
  const headers: Record<string, string> = {};
  if (clusterKey) headers[CLUSTER_PROOF_HEADER] = signClusterRequest(clusterKey, target.pathname);
  const signal = AbortSignal.timeout(timeoutMs);
  let text: string;
  let status: number;
  try {
    const response = await fetch(target, { headers, signal });
    status = response.status;
    text = await readBounded(response);
  } catch (error) {
    throw new Error(networkReason(error), { cause: error });
  }
  if (status === 403) throw new Error(`cluster key rejected: ${text.slice(0, 200)}`);
  if (status !== 200) throw new Error(`HTTP ${status}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error('the peer answered something that is not JSON');
  }
  const parsed = ingestState.safeParse(body);
  if (!parsed.success) throw new Error('the peer answered an unexpected ingest state');
  return parsed.data;
}

/** The body as text, refused past INGEST_STATE_MAX_BYTES (a peer can't make this server hold more). */
async function readBounded(response: Response): Promise<string> {
  if (!response.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Uint8Array).byteLength;
    if (size > INGEST_STATE_MAX_BYTES) {
      await response.body.cancel().catch(() => undefined);
      throw new Error(`answer over ${INGEST_STATE_MAX_BYTES} bytes`);
    }
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks).toString('utf8');
}
