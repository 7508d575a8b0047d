import type { WebSocket } from 'ws';
import type { LiveView } from '../live/live-view.js';
import { FullMessageCache } from './full-message-cache.js';
import { redactSecrets } from './redact.js';

/**
 * A topic command arriving on the events socket (spec 001 §7): `subscribe:…`, `pulse_subscribe:…`,
 * `log_media_start:…`, `sessions?name=…`. A handler gets the part after its prefix and a way to send.
 */
export interface TopicHandler {
  /** Called for the command; returns a function that stops what it started, if anything. */
  (argument: string, client: EventClient): (() => void) | void;
}

export interface EventClient {
  send(event: Record<string, unknown>): void;
  /** true for edit callers; a view-only connection gets no secret (http/secret-fields.ts). */
  readonly canReadSecrets?: boolean;
}

interface Connection extends EventClient {
  version: number | undefined;
  readonly canReadSecrets: boolean;
  stops: Map<string, () => void>;
  /** Sends a message already serialised (the shared current_config). */
  sendText(text: string): void;
  stillAllowed(): boolean;
  close(): void;
}

/** Close code of a socket whose session ended or whose password changed (4000–4999: the app's own). */
export const CREDENTIALS_ENDED = 4401;

/**
 * The events websocket: answers read_config with the whole live view and read_config_delta with
 * what changed since this socket's last answer (spec 000 §4, §7), and routes topic commands.
 */
export class EventsHub {
  private readonly connections = new Set<Connection>();
  private readonly handlers = new Map<string, TopicHandler>();
  private readonly fullMessages: FullMessageCache;

  constructor(private readonly view: LiveView) {
    this.fullMessages = new FullMessageCache(view);
  }

  /** Registers a command prefix such as 'log_media_start:'. The matching stop prefix is given too. */
  handle(prefix: string, handler: TopicHandler, stopPrefix?: string): void {
    this.handlers.set(prefix, handler);
    if (stopPrefix)
      this.handlers.set(stopPrefix, (arg, client) => this.stop(client as Connection, prefix + arg));
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /**
   * `stillAllowed` tells whether the socket's credentials still hold; `recheck()` closes the sockets
   * whose answer changed (a logout, a new password), so an open socket outlives no credential.
   */
  attach(socket: WebSocket, redact = false, stillAllowed: () => boolean = () => true): void {
    const connection: Connection = {
      stillAllowed,
      close: () => socket.close(CREDENTIALS_ENDED, 'the credentials of this socket are no longer valid'),
      version: undefined,
      canReadSecrets: !redact,
      stops: new Map(),
      send: (event) => connection.sendText(JSON.stringify(event)),
      sendText: (text) => {
        if (socket.readyState === socket.OPEN) socket.send(text);
      },
    };
    this.connections.add(connection);
    // The view's change log keeps what this socket has not read yet, and no more.
    const untrack = this.view.track(connection);
    socket.on('message', (raw) => this.onMessage(connection, raw.toString()));
    socket.on('close', () => {
      this.connections.delete(connection);
      untrack();
      for (const stop of connection.stops.values()) stop();
      connection.stops.clear();
    });
    socket.on('error', () => socket.close());
  }

  /** Closes the connections whose credentials no longer hold. */
  recheck(): void {
    for (const c of this.connections) if (!c.stillAllowed()) c.close();
  }

  /** Sends an event to every connection (e.g. a notice); topic events go through handlers instead. */
  broadcast(event: Record<string, unknown>): void {
    for (const c of this.connections) c.send(event);
  }

  private onMessage(connection: Connection, message: string): void {
    const command = message.trim();
    if (command === 'read_config') return this.sendFull(connection);
    if (command === 'read_config_delta') return this.sendDelta(connection);
    for (const [prefix, handler] of this.handlers) {
      if (!command.startsWith(prefix)) continue;
      const argument = command.slice(prefix.length);
      const key = prefix + argument;
      if (connection.stops.has(key)) return;
      const stop = handler(argument, connection);
      if (stop) connection.stops.set(key, stop);
      return;
    }
    connection.send({ event: 'error', message: `unknown command: ${command.slice(0, 100)}` });
  }

  private stop(connection: Connection, key: string): void {
    connection.stops.get(key)?.();
    connection.stops.delete(key);
  }

  /**
   * The whole view: the message shared by the sockets asking within 30 s of each other, unless the
   * config changed (full-message-cache.ts), or, `fresh`, built now (the delta log no longer reaches back).
   */
  private sendFull(connection: Connection, fresh = false): void {
    if (fresh) this.fullMessages.drop();
    const { text, version } = this.fullMessages.get(connection.canReadSecrets);
    connection.version = version;
    connection.sendText(text);
  }

  private sendDelta(connection: Connection): void {
    if (connection.version === undefined) return this.sendFull(connection);
    const result = this.view.deltaSince(connection.version);
    if (!result) return this.sendFull(connection, true);
    connection.version = result.version;
    // A delta holds the changed paths only; the same table hides a secret that changed.
    const data = connection.canReadSecrets ? result.delta : redactSecrets(result.delta);
    connection.send({
      event: 'current_config_delta',
      data,
      partial_update: !result.complete,
      revision: this.revision,
    });
  }

  /** The config's revision (If-Match of a save), which main.ts keeps in the view. */
  private get revision(): unknown {
    return this.view.snapshot.config_revision;
  }
}
