import type { SecureContext } from 'node:tls';
import type { PlayAuth } from '../auth/play-auth.js';
import { webrtcPublishGate } from '../auth/webrtc-gate.js';
import type { ClientSessions } from '../delivery/client-sessions.js';
import type { Engine } from '../engine/engine.js';
import type { AskingPublishHandler } from '../ingest/rtmp/rtmp-server.js';
import type { RtspServerLog } from './rtsp-connection.js';
import { RtspPlayers } from './rtsp-play.js';
import { RtspPort } from './rtsp-port.js';

export interface RtspServiceOptions {
  engine: Engine;
  sessions: ClientSessions;
  auth: PlayAuth;
  /** Streams whose output is encrypted (HLS only): not played over RTSP. */
  encrypted: (name: string) => boolean;
  /** The RTMP listener's publish entry (routing, password, auth, the publish slot). */
  publish: AskingPublishHandler;
  host: string;
  log: RtspServerLog;
  /** The certificate of the RTSPS port, asked at each handshake (none: RTSPS is not opened). */
  secureContext?: (() => SecureContext) | undefined;
}

/**
 * RTSP, publish and play, on the configured `rtsp` port and over TLS on `rtsps`: what
 * media-services.ts builds and follows the config with. Publishing goes through the RTMP publish
 * path; playing through the play gate. Both ports share the players and the publish gate.
 */
export class RtspService {
  private readonly players: RtspPlayers;
  private readonly port: RtspPort;
  private readonly securePort: RtspPort | undefined;

  constructor(options: RtspServiceOptions) {
    this.players = new RtspPlayers(options);
    // The ANNOUNCE check before any work: routing and password (the engine's), then the auth settings.
    const { authorize } = webrtcPublishGate(options.auth, options.engine);
    const deps = { players: this.players, publish: { authorize, publish: options.publish } };
    this.port = new RtspPort(deps, options.log, options.host);
    const { secureContext } = options;
    if (secureContext)
      this.securePort = new RtspPort(deps, options.log, options.host, undefined, {
        name: 'rtsps',
        secureContext,
      });
  }

  /** Follows the `rtsp` and `rtsps` ports. */
  async apply(port: number | undefined, securePort?: number): Promise<void> {
    await this.port.apply(port);
    await this.securePort?.apply(securePort);
  }

  /** Header notices for an `rtsp` / `rtsps` port that can't be bound. */
  notices(): Record<string, string> {
    return { ...this.port.notices(), ...this.securePort?.notices() };
  }

  async close(): Promise<void> {
    await this.port.close();
    await this.securePort?.close();
    this.players.close();
  }
}
