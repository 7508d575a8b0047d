import type { Logger } from '../../support/log.js';
import { EtcdClient, EtcdUnreachable } from './etcd-client.js';

/** Keys of cluster ingest in etcd: `sluice/ingest/<stream>` = the capturing server's id, under its lease. */
export const ETCD_PREFIX = 'sluice/ingest/';
export const LEASE_SECONDS = 3;

/**
 * Coordinated mode: a stream is captured only by the server whose lease holds its key in etcd.
 * Each server keeps one lease alive (TTL `ttlSeconds`, renewed each round) and claims free keys
 * with a create-if-absent transaction, so two servers never hold one key. While etcd can't be
 * reached nothing changes hands ("frozen"): captures go on, and the notice says so.
 */
export class EtcdLeases {
  private readonly client: EtcdClient;
  private lease: string | undefined;
  /** Stream → holder id, as etcd said at the last good round. */
  readonly holders = new Map<string, string>();
  /** Rounds each stream's key has been seen free. */
  private readonly freeRounds = new Map<string, number>();
  /** Why etcd could not be used at the last round (frozen while set). */
  error: string | undefined;

  constructor(
    endpoints: readonly string[],
    private readonly ttlSeconds: number,
    private readonly selfId: string,
    private readonly log: Logger,
  ) {
    this.client = new EtcdClient(endpoints, Math.min(1000, Math.round((ttlSeconds * 1000) / 3)));
  }

  /**
   * One round: keep the lease alive (a new one when it expired), read who holds what, claim the
   * free keys `mayClaim` allows and release the ones `letGo` names.
   */
  async round(
    names: readonly string[],
    mayClaim: (name: string, freeRounds: number) => boolean,
    letGo: (name: string) => boolean,
  ): Promise<void> {
    try {
      await this.keepLease();
      const held = await this.client.list(ETCD_PREFIX);
      this.holders.clear();
      for (const { key, value } of held) this.holders.set(key.slice(ETCD_PREFIX.length), value);
      for (const name of names) {
        const holder = this.holders.get(name);
        if (holder === this.selfId && letGo(name)) {
          await this.client.release(ETCD_PREFIX + name, this.lease!);
          this.holders.delete(name);
          this.log.notice(`cluster ingest ${name}: lease released (the source was lost here)`);
          continue;
        }
        if (holder !== undefined) {
          this.freeRounds.delete(name);
          continue;
        }
        const free = (this.freeRounds.get(name) ?? 0) + 1;
        this.freeRounds.set(name, free);
        if (!mayClaim(name, free)) continue;
        if (await this.client.claim(ETCD_PREFIX + name, this.selfId, this.lease!)) {
          this.holders.set(name, this.selfId);
          this.log.notice(`cluster ingest ${name}: lease taken, capturing here`);
        }
      }
      if (this.error) this.log.notice('etcd answers again: cluster ingest leases follow it');
      this.error = undefined;
    } catch (error) {
      if (!(error instanceof EtcdUnreachable)) throw error;
      if (!this.error) this.log.error(`${error.message}: cluster ingest leases frozen`);
      this.error = error.message;
    }
  }

  /** Drops what this server holds, as far as it knows (isolated: etcd has let it go by now). */
  dropOwn(): string[] {
    const dropped: string[] = [];
    for (const [name, holder] of this.holders)
      if (holder === this.selfId) {
        this.holders.delete(name);
        dropped.push(name);
      }
    return dropped;
  }

  async close(): Promise<void> {
    const lease = this.lease;
    this.lease = undefined;
    // Let the others take over at once rather than after the TTL (a clean stop).
    if (lease) await this.client.revoke(lease).catch(() => undefined);
  }

  private async keepLease(): Promise<void> {
    if (this.lease && (await this.client.keepAlive(this.lease))) return;
    if (this.lease)
      this.log.notice('etcd lease expired: a new one is taken; streams held under it are claimed again');
    this.lease = await this.client.grant(this.ttlSeconds);
  }
}
