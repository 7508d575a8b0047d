import { RTSP_PARSE_LIMITS, type RtspParseLimits } from './rtsp-request.js';

/**
 * What one RTSP peer may hold: time, connections, requests and memory. Anyone who reaches the
 * port gets this far before a password or token is asked, so every figure is bounded.
 */
export interface RtspLimits extends RtspParseLimits {
  /** From accept to a PLAY or RECORD accepted: a peer that only talks, or says nothing, is closed. */
  handshakeTimeoutMs: number;
  /** A publisher that sends nothing for this long is closed (players send RTCP or keepalives). */
  idleTimeoutMs: number;
  /** Connections open at once from one address; more are closed on accept. */
  maxConnectionsPerIp: number;
  /** Requests one connection may make in a second: a burst over it ends the connection. */
  maxRequestsPerSecond: number;
  /** Bytes a player may be behind (unsent on its socket) before it is cut off. */
  maxPlayerBacklogBytes: number;
  /** DESCRIBE waits this long for a stream's first keyframe (its parameter sets) before 503. */
  describeWaitMs: number;
}

export const RTSP_LIMITS: Readonly<RtspLimits> = {
  ...RTSP_PARSE_LIMITS,
  handshakeTimeoutMs: 10_000,
  idleTimeoutMs: 30_000,
  maxConnectionsPerIp: 64,
  maxRequestsPerSecond: 50,
  maxPlayerBacklogBytes: 4 * 1024 * 1024,
  describeWaitMs: 8_000,
};

/**
 * The limits, with the time and connection figures taken from the environment when set
 * (SLUICE_RTSP_HANDSHAKE_TIMEOUT_MS, SLUICE_RTSP_IDLE_TIMEOUT_MS, SLUICE_RTSP_MAX_CONNECTIONS_PER_IP):
 * tests shorten them so a timeout is seen in a second, not half a minute.
 */
export function rtspLimitsFrom(env: NodeJS.ProcessEnv): RtspLimits {
  const positive = (value: string | undefined, otherwise: number) => {
    const n = Number(value);
    return value !== undefined && Number.isInteger(n) && n > 0 ? n : otherwise;
  };
  return {
    ...RTSP_LIMITS,
    handshakeTimeoutMs: positive(env.SLUICE_RTSP_HANDSHAKE_TIMEOUT_MS, RTSP_LIMITS.handshakeTimeoutMs),
    idleTimeoutMs: positive(env.SLUICE_RTSP_IDLE_TIMEOUT_MS, RTSP_LIMITS.idleTimeoutMs),
    maxConnectionsPerIp: positive(env.SLUICE_RTSP_MAX_CONNECTIONS_PER_IP, RTSP_LIMITS.maxConnectionsPerIp),
  };
}
