/**
 * WebRTC publishes being set up — from the socket's opening until the stream takes the media (or
 * the attempt ends) — counted per client address and in all. Anyone who can reach the HTTP port
 * may open the publish socket, and each attempt that gets through authorization costs a peer
 * connection, UDP ports and an ffmpeg: the caps bound what unauthenticated or unfinished attempts
 * can hold at once.
 */
export class NegotiationLimit {
  private readonly byIp = new Map<string, number>();
  private total = 0;

  constructor(
    readonly perIp: number,
    readonly overall: number,
  ) {}

  /** Counts one more attempt from `ip`: its release (safe to call more than once), or why not. */
  enter(ip: string): (() => void) | { refused: string } {
    const mine = this.byIp.get(ip) ?? 0;
    if (mine >= this.perIp)
      return {
        refused: `too many WebRTC publishes being set up from ${ip} (at most ${this.perIp} at once)`,
      };
    if (this.total >= this.overall)
      return {
        refused: `too many WebRTC publishes being set up (at most ${this.overall} at once), try again shortly`,
      };
    this.byIp.set(ip, mine + 1);
    this.total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.byIp.get(ip) ?? 1) - 1;
      if (left > 0) this.byIp.set(ip, left);
      else this.byIp.delete(ip);
    };
  }

  /** Attempts in progress, from `ip` or in all. */
  count(ip?: string): number {
    return ip === undefined ? this.total : (this.byIp.get(ip) ?? 0);
  }
}
