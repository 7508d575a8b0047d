/**
 * What one RTMP peer may hold: time, connections and memory. Anyone who can reach the RTMP port
 * gets this far before any password is asked, so every figure is bounded.
 */
export interface RtmpLimits {
  /** From accept to a publish or play accepted: a half-done handshake or a silent peer is closed. */
  handshakeTimeoutMs: number;
  /** A publisher that sends nothing for this long is closed (players only read, so they have none). */
  idleTimeoutMs: number;
  /** Connections open at once from one address; more are closed on accept. */
  maxConnectionsPerIp: number;
  /** Chunk streams one connection may use: encoders use 3 to 8. */
  maxChunkStreams: number;
  /** Largest command, control or data message, and any message before a publish: commands are small. */
  maxCommandMessageBytes: number;
  /** Largest audio or video message of a publisher: a 4K keyframe is a few MB; RTMP allows 16 MB. */
  maxMediaMessageBytes: number;
  /** Message buffers one connection may reserve in all (the parser reserves a message's length up front). */
  maxPayloadBytesPerConnection: number;
}

export const RTMP_LIMITS: Readonly<RtmpLimits> = {
  handshakeTimeoutMs: 10_000,
  idleTimeoutMs: 30_000,
  maxConnectionsPerIp: 64,
  maxChunkStreams: 16,
  maxCommandMessageBytes: 64 * 1024,
  maxMediaMessageBytes: 8 * 1024 * 1024,
  maxPayloadBytesPerConnection: 12 * 1024 * 1024,
};

/**
 * The limits, with the three time and connection figures taken from the environment when set
 * (SLUICE_RTMP_HANDSHAKE_TIMEOUT_MS, SLUICE_RTMP_IDLE_TIMEOUT_MS, SLUICE_RTMP_MAX_CONNECTIONS_PER_IP):
 * tests shorten them so a timeout is seen in a second, not half a minute.
 */
export function rtmpLimitsFrom(env: NodeJS.ProcessEnv): RtmpLimits {
  const positive = (value: string | undefined, otherwise: number) => {
    const n = Number(value);
    return value !== undefined && Number.isInteger(n) && n > 0 ? n : otherwise;
  };
  return {
    ...RTMP_LIMITS,
    handshakeTimeoutMs: positive(env.SLUICE_RTMP_HANDSHAKE_TIMEOUT_MS, RTMP_LIMITS.handshakeTimeoutMs),
    idleTimeoutMs: positive(env.SLUICE_RTMP_IDLE_TIMEOUT_MS, RTMP_LIMITS.idleTimeoutMs),
    maxConnectionsPerIp: positive(env.SLUICE_RTMP_MAX_CONNECTIONS_PER_IP, RTMP_LIMITS.maxConnectionsPerIp),
  };
}
