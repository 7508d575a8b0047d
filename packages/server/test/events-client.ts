import WebSocket from 'ws';
import { waitFor } from './harness.js';

/** A test client of the events websocket that records every event it receives. */
export class EventsClient {
  readonly events: Record<string, unknown>[] = [];
  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.events.push(JSON.parse(data.toString()) as Record<string, unknown>));
  }

  static async open(url: string, headers: Record<string, string> = {}): Promise<EventsClient> {
    const socket = new WebSocket(url.replace(/^http/, 'ws'), { headers });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    return new EventsClient(socket);
  }

  send(command: string): void {
    this.socket.send(command);
  }

  /** Sends `command` and waits for the next event named `event`. */
  async request(command: string, event: string): Promise<Record<string, unknown>> {
    const seen = this.events.length;
    this.send(command);
    return waitFor(() => this.events.slice(seen).find((e) => e.event === event));
  }

  close(): void {
    this.socket.close();
  }
}
