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
}

/**
 * RTSP, publish and play, on the configured `rtsp` port: what media-services.ts builds and follows
 * the config with. Publishing goes through the RTMP publish path; playing through the play gate.
 */
export class RtspService {
  private readonly players: RtspPlayers;
  private readonly port: RtspPort;

  constructor(options: RtspServiceOptions) {
    this.players = new RtspPlayers(options);
    // The ANNOUNCE check before any work: routing and password (the engine's), then the auth settings.
    const { authorize } = webrtcPublishGate(options.auth, options.engine);
    this.port = new RtspPort(
      { players: this.players, publish: { authorize, publish: options.publish } },
      options.log,
      options.host,
    );
  }

  apply(port: number | undefined): Promise<void> {
    return this.port.apply(port);
  }

  async close(): Promise<void> {
    await this.port.close();
    this.players.close();
  }
}
