const RTP_WRAP = 2 ** 32;

/**
 * RTP timestamps for one outgoing track: the source's timestamps (PTS, or an RTP feed's) shifted
 * so that the track runs on without a jump when its source changes (a failover, a restart, the
 * audio ffmpeg restarting) or its timestamps leap. A viewer's jitter buffer would take a leap of
 * hours for a packet to hold back, or to throw away as late.
 */
export class RtpClock {
  private offset = Math.floor(Math.random() * RTP_WRAP);
  private lastIn: number | undefined;
  private lastOut = 0;
  private fresh = true;

  /** `rate` is the clock in Hz; a step larger than `maxStepSeconds` either way is a leap. */
  constructor(
    private readonly rate: number,
    private readonly maxStepSeconds = 5,
  ) {}

  /** The next input is a new timeline: it continues `step` ticks after the last output. */
  restart(): void {
    this.fresh = true;
  }

  /** The outgoing timestamp of `input`; `step` is how far after the last output a new timeline starts. */
  map(input: number, step: number): number {
    if (this.lastIn !== undefined && !this.fresh) {
      const delta = wrapDiff(input, this.lastIn);
      if (Math.abs(delta) > this.maxStepSeconds * this.rate) this.fresh = true;
    }
    if (this.fresh && this.lastIn !== undefined) this.offset = this.lastOut + step - input;
    this.fresh = false;
    this.lastIn = input;
    this.lastOut = mod(input + this.offset);
    return this.lastOut;
  }
}

const mod = (value: number): number => ((value % RTP_WRAP) + RTP_WRAP) % RTP_WRAP;

/** a − b as the shortest distance on a 32-bit circle (a 33-bit PTS wrap is 0 modulo 2^32). */
function wrapDiff(a: number, b: number): number {
  let d = mod(a - b);
  if (d > RTP_WRAP / 2) d -= RTP_WRAP;
  return d;
}
