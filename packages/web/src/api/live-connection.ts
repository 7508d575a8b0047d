import { wsCommands } from '@sluice/api';
import type { Delta } from './edits.js';
import type { ConnectionState, LiveView } from './live-state.js';

/** Spec 000 §9: config delta poll 1000 ms (0 after a partial update); websocket reconnect 2000 ms. */
export const DELTA_POLL_MS = 1000;
export const RECONNECT_MS = 2000;

/** The part of the browser's WebSocket this class uses (a fake one in tests). */
export interface SocketLike {
  /** WebSocket.readyState: 1 is open. A closing socket (the server ended the session) takes no send. */
  readonly readyState?: number;
  send(data: string): void;
  close(): void;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
}

export interface LiveConnectionHandlers {
  onConfig(data: LiveView): void;
  onDelta(data: Delta | null): void;
  onConnection(state: ConnectionState): void;
  /** Events other than the config ones, for the topics later screens subscribe to. */
  onEvent?(event: { event: string } & Record<string, unknown>): void;
  /**
   * Asked before each reconnect: false when the session is gone (logged out here or elsewhere, or
   * refused with 401), which stops the connection for good instead of retrying every 2 s.
   */
  stillLoggedIn?(): Promise<boolean>;
  /**
   * How many times this console has logged in: after a close for an ended session (4401), a login
   * since the socket opened means a new session (a password change), and the connection goes on.
   */
  loginCount?(): number;
  /** The session ended (close code 4401, or stillLoggedIn said no): the connection has stopped. */
  onSessionEnded?(): void;
}

/** WebSocket.OPEN, spelled out: tests hand in socket doubles without the constants. */
const OPEN = 1;

/** The server's close code for a socket whose session ended or whose password changed. */
export const CREDENTIALS_ENDED = 4401;

/** Session open and close events are ignored (spec 000 §4). */
const isSessionLifecycle = (name: string) => /^session_(open|close)/.test(name);

/**
 * The events websocket (spec 000 §4): read_config on open, then read_config_delta 1 s after each
 * answer (at once after a partial one); on close or error, offline, and a new socket 2 s later that
 * asks for the whole config again and re-sends the topic subscriptions.
 */
export class LiveConnection {
  private socket: SocketLike | undefined;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  /** Config requests sent on this socket and answers received; answers come in request order. */
  private sent = 0;
  private answered = 0;
  private waiters: { request: number; resolve: () => void }[] = [];
  private readonly topics = new Set<string>();
  /** Topic commands of spec 001 §7 (log_media_start:…, pulse_subscribe:…) to resend after a reconnect. */
  private readonly commands = new Set<string>();
  private running = false;
  /** loginCount() when the current socket was opened. */
  private loginsAtOpen = 0;

  constructor(
    private readonly open: () => SocketLike,
    private readonly handlers: LiveConnectionHandlers,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.connect();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.pollTimer);
    clearTimeout(this.reconnectTimer);
    this.detach()?.close();
    this.settleWaiters();
  }

  /**
   * Asks for a delta now; resolves once its answer has been handed on (or the socket is gone, in
   * which case the whole config follows on reconnect). Used after a save to confirm it.
   */
  refreshNow(): Promise<void> {
    if (!this.socket) return Promise.resolve();
    clearTimeout(this.pollTimer);
    const request = this.request(wsCommands.readConfigDelta);
    return new Promise((resolve) => this.waiters.push({ request, resolve }));
  }

  /** Sends `subscribe:{topic}` now and again after every reconnect. */
  subscribe(topic: string): void {
    this.topics.add(topic);
    this.sendIfOpen(`subscribe:${topic}`);
  }

  unsubscribe(topic: string): void {
    if (this.topics.delete(topic)) this.sendIfOpen(`unsubscribe:${topic}`);
  }

  /** Sends a topic command now and again after every reconnect, until `stopCommand`. */
  startCommand(command: string): void {
    this.commands.add(command);
    this.sendIfOpen(command);
  }

  /** Forgets `start` and sends `stop` (log_media_stop:…, pulse_unsubscribe:…). */
  stopCommand(start: string, stop: string): void {
    if (this.commands.delete(start)) this.sendIfOpen(stop);
  }

  /** A one-off command such as `sessions?name=…`; dropped while offline (its poll asks again). */
  send(command: string): void {
    this.sendIfOpen(command);
  }

  private connect(): void {
    this.loginsAtOpen = this.handlers.loginCount?.() ?? 0;
    const socket = this.open();
    this.socket = socket;
    this.sent = 0;
    this.answered = 0;
    socket.onopen = () => {
      this.handlers.onConnection('connected');
      this.request(wsCommands.readConfig);
      for (const topic of this.topics) socket.send(`subscribe:${topic}`);
      for (const command of this.commands) socket.send(command);
    };
    socket.onmessage = (event) => this.onMessage(event.data);
    socket.onclose = (event) => this.onLost(socket, event.code);
    socket.onerror = () => this.onLost(socket);
  }

  /**
   * Sends on the current socket while it is open. Between the server's close and the close event
   * (a password change ends the session right after its save answered) a send would only make the
   * browser log "WebSocket is already in CLOSING or CLOSED state"; the reconnect asks afresh.
   */
  private sendIfOpen(text: string): void {
    const socket = this.socket;
    if (socket && (socket.readyState === undefined || socket.readyState === OPEN)) socket.send(text);
  }

  private request(command: string): number {
    this.sent++;
    this.sendIfOpen(command);
    return this.sent;
  }

  private onMessage(raw: unknown): void {
    if (typeof raw !== 'string') return;
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      console.warn('events socket: a message that is not JSON was ignored');
      return;
    }
    if (typeof message !== 'object' || message === null) return;
    const event = message as { event?: unknown; data?: unknown; partial_update?: unknown };
    if (event.event === 'current_config' || event.event === 'current_config_delta') {
      if (event.event === 'current_config') this.handlers.onConfig((event.data ?? {}) as LiveView);
      else this.handlers.onDelta((event.data ?? null) as Delta | null);
      this.onAnswer(event.partial_update === true);
    } else if (typeof event.event === 'string' && !isSessionLifecycle(event.event)) {
      this.handlers.onEvent?.(message as { event: string });
    }
  }

  private onAnswer(partial: boolean): void {
    this.answered++;
    this.waiters = this.waiters.filter((w) => {
      if (w.request > this.answered) return true;
      w.resolve();
      return false;
    });
    // Only the answer to the last request schedules the next one, so a refreshNow() never doubles the poll.
    if (this.answered < this.sent) return;
    clearTimeout(this.pollTimer);
    const send = () => this.request(wsCommands.readConfigDelta);
    if (partial) send();
    else this.pollTimer = setTimeout(send, DELTA_POLL_MS);
  }

  private onLost(socket: SocketLike, closeCode?: number): void {
    if (socket !== this.socket) return;
    this.detach();
    clearTimeout(this.pollTimer);
    this.settleWaiters();
    // A session ended by a password change may already have a successor: this console logs in
    // again with the password it just saved (global settings). The check before the reconnect says.
    if (closeCode === CREDENTIALS_ENDED) {
      // A session ended by a password change may already have a successor: this console logs in
      // again with the password it just saved (global settings). Not offline: the server is there.
      const logins = this.handlers.loginCount;
      if (!logins || !this.running) return this.endSession();
      this.reconnectTimer = setTimeout(() => {
        if (logins() > this.loginsAtOpen) this.connect();
        else this.endSession();
      }, RECONNECT_MS);
      return;
    }
    this.handlers.onConnection('offline');
    if (this.running) this.reconnectTimer = setTimeout(() => this.reconnect(), RECONNECT_MS);
  }

  private reconnect(): void {
    const check = this.handlers.stillLoggedIn;
    if (!check) return this.connect();
    void check().then((loggedIn) => {
      if (!this.running) return;
      if (loggedIn) this.connect();
      else this.endSession();
    });
  }

  private endSession(): void {
    this.stop();
    this.handlers.onSessionEnded?.();
  }

  private detach(): SocketLike | undefined {
    const socket = this.socket;
    if (socket) socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    this.socket = undefined;
    return socket;
  }

  private settleWaiters(): void {
    for (const w of this.waiters) w.resolve();
    this.waiters = [];
  }
}
