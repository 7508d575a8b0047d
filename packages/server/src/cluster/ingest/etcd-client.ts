/**
 * The few etcd v3 calls cluster ingest needs, over etcd's own JSON gateway (`/v3/…`, served on
 * its client port since 3.3; Debian's etcd-server 3.4 has it) with fetch: no gRPC stack and no
 * dependency, and each call is one bounded HTTP request whose failure is plainly "etcd unreachable".
 * The `etcd3` package would bring grpc-js and protobuf for the same five calls.
 */
export class EtcdUnreachable extends Error {}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const unb64 = (text: string | undefined) => Buffer.from(text ?? '', 'base64').toString('utf8');

/** A key's current holder: the value written and the lease it lives by. */
export interface Held {
  key: string;
  value: string;
  lease: string;
}

export class EtcdClient {
  private next = 0;

  constructor(
    private readonly endpoints: readonly string[],
    private readonly timeoutMs: number,
  ) {}

  /** A lease of `ttlSeconds`; its id. */
  async grant(ttlSeconds: number): Promise<string> {
    const body = await this.call<{ ID?: string }>('/v3/lease/grant', { TTL: ttlSeconds });
    if (!body.ID) throw new EtcdUnreachable('etcd granted no lease');
    return body.ID;
  }

  /** Keeps the lease alive; false when etcd says it has expired (it no longer exists). */
  async keepAlive(lease: string): Promise<boolean> {
    const body = await this.call<{ result?: { TTL?: string } }>('/v3/lease/keepalive', { ID: lease });
    return Number(body.result?.TTL ?? 0) > 0;
  }

  async revoke(lease: string): Promise<void> {
    await this.call('/v3/lease/revoke', { ID: lease });
  }

  /** Writes `key` = `value` under `lease` if nobody holds it; true when this call took it. */
  async claim(key: string, value: string, lease: string): Promise<boolean> {
    const k = b64(key);
    const body = await this.call<{ succeeded?: boolean }>('/v3/kv/txn', {
      compare: [{ key: k, target: 'CREATE', result: 'EQUAL', create_revision: '0' }],
      success: [{ request_put: { key: k, value: b64(value), lease } }],
    });
    return body.succeeded === true;
  }

  /** Deletes `key` if it is still held by `lease` (a release never removes another's claim). */
  async release(key: string, lease: string): Promise<void> {
    const k = b64(key);
    await this.call('/v3/kv/txn', {
      compare: [{ key: k, target: 'LEASE', result: 'EQUAL', lease }],
      success: [{ request_delete_range: { key: k } }],
    });
  }

  /** Every key under `prefix` with its value and lease. */
  async list(prefix: string): Promise<Held[]> {
    const end = Buffer.from(prefix, 'utf8');
    end[end.length - 1]! += 1;
    const body = await this.call<{ kvs?: { key?: string; value?: string; lease?: string }[] }>(
      '/v3/kv/range',
      {
        key: b64(prefix),
        range_end: end.toString('base64'),
      },
    );
    return (body.kvs ?? []).map((kv) => ({
      key: unb64(kv.key),
      value: unb64(kv.value),
      lease: kv.lease ?? '0',
    }));
  }

  /** One call, to the endpoint that answered last, then the others in turn. */
  private async call<T>(path: string, payload: unknown): Promise<T> {
    let lastError: unknown;
    for (let i = 0; i < this.endpoints.length; i++) {
      const index = (this.next + i) % this.endpoints.length;
      try {
        const response = await fetch(new URL(path, this.endpoints[index]), {
          method: 'POST',
          body: JSON.stringify(payload),
          headers: { 'content-type': 'application/json' },
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        const text = await response.text();
        if (!response.ok) throw new Error(`HTTP ${response.status}: ${text.slice(0, 200)}`);
        this.next = index;
        return JSON.parse(text) as T;
      } catch (error) {
        lastError = error;
      }
    }
    throw new EtcdUnreachable(`etcd unreachable (${this.endpoints.join(' ')}): ${describe(lastError)}`);
  }
}

function describe(error: unknown): string {
  const e = error as Error & { cause?: Error & { code?: string } };
  if (e?.name === 'TimeoutError') return 'timeout';
  return e?.cause?.code === 'ECONNREFUSED'
    ? 'connection refused'
    : (e?.cause?.message ?? e?.message ?? 'error');
}
