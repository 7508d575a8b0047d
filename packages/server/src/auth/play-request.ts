/** Who asks to play (or publish) what: everything an authorization rule or backend may look at. */
export interface PlayRequest {
  /** The stream. */
  name: string;
  ip: string;
  /** ?token= of the request, if any. */
  token: string | undefined;
  userAgent: string;
  referer: string | undefined;
  /** hls, mpegts, dash, rtmp … */
  proto: string;
  requestType: 'play' | 'publish';
  /** The session the request belongs to (an existing one's id, or the id a new one will take). */
  sessionId: string;
  /** The client's country ('' when unknown), looked up once per request. */
  country: string;
  /** A request carrying a cluster key proof (cluster/proof.ts): a mirror pulling the stream. */
  cluster?: { url: string; headers: Record<string, string | string[] | undefined> };
}

/** An allow carries what the backend told about the viewer; a deny, why (logged, and sent with the 403). */
export type Verdict =
  | { allow: true; userId?: string; ttlMs?: number }
  | { allow: false; reason: string; ttlMs?: number; failed?: boolean };

export const allow = (extra: { userId?: string; ttlMs?: number } = {}): Verdict => ({
  allow: true,
  ...extra,
});
export const deny = (reason: string, ttlMs?: number): Verdict => ({ allow: false, reason, ttlMs });
