import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CREDENTIALS_ENDED,
  DELTA_POLL_MS,
  LiveConnection,
  type LiveConnectionHandlers,
  RECONNECT_MS,
  type SocketLike,
} from './live-connection.js';

class FakeSocket implements SocketLike {
  readyState: number | undefined = undefined;
  sent: string[] = [];
  closed = false;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
  opened() {
    this.onopen?.(new Event('open'));
  }
  receive(message: object) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }));
  }
  lost() {
    this.onerror?.(new Event('error'));
    this.onclose?.(new Event('close') as CloseEvent);
  }
  /** A clean close by the server, as a socket whose session ended gets it. */
  closedBy(code: number) {
    this.onclose?.(Object.assign(new Event('close'), { code }) as CloseEvent);
  }
}

function connect(session: Partial<LiveConnectionHandlers> = {}) {
  const sockets: FakeSocket[] = [];
  const handlers = {
    onConfig: vi.fn(),
    onDelta: vi.fn(),
    onConnection: vi.fn(),
    onEvent: vi.fn(),
    ...session,
  };
  const connection = new LiveConnection(() => {
    const socket = new FakeSocket();
    sockets.push(socket);
    return socket;
  }, handlers);
  connection.start();
  const socket = () => sockets[sockets.length - 1]!;
  return { connection, handlers, sockets, socket };
}

describe('LiveConnection', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks for the whole config on open, then a delta 1 s after each answer', () => {
    const { socket, handlers } = connect();
    socket().opened();
    expect(handlers.onConnection).toHaveBeenLastCalledWith('connected');
    expect(socket().sent).toEqual(['read_config']);
    socket().receive({ event: 'current_config', data: { rtmp: 1935 }, partial_update: false });
    expect(handlers.onConfig).toHaveBeenCalledWith({ rtmp: 1935 });
    vi.advanceTimersByTime(DELTA_POLL_MS - 1);
    expect(socket().sent).toEqual(['read_config']);
    vi.advanceTimersByTime(1);
    expect(socket().sent).toEqual(['read_config', 'read_config_delta']);
  });

  it('asks again at once after a partial update', () => {
    const { socket, handlers } = connect();
    socket().opened();
    socket().receive({ event: 'current_config_delta', data: { a: 1 }, partial_update: true });
    expect(handlers.onDelta).toHaveBeenCalledWith({ a: 1 });
    expect(socket().sent).toEqual(['read_config', 'read_config_delta']);
  });

  it('goes offline on error or close and reconnects 2 s later, re-subscribing', () => {
    const { connection, socket, sockets, handlers } = connect();
    socket().opened();
    connection.subscribe('pulse');
    socket().lost();
    expect(handlers.onConnection).toHaveBeenLastCalledWith('offline');
    expect(handlers.onConnection).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(RECONNECT_MS - 1);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    socket().opened();
    expect(socket().sent).toEqual(['read_config', 'subscribe:pulse']);
  });

  it('keeps retrying while the server is away', () => {
    const { socket, sockets } = connect();
    socket().lost();
    vi.advanceTimersByTime(RECONNECT_MS);
    socket().lost();
    vi.advanceTimersByTime(RECONNECT_MS);
    expect(sockets).toHaveLength(3);
  });

  it('stops for good when the server closes the socket because the session ended', () => {
    const onSessionEnded = vi.fn();
    const { socket, sockets } = connect({ onSessionEnded });
    socket().opened();
    socket().closedBy(CREDENTIALS_ENDED);
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10 * RECONNECT_MS);
    expect(sockets).toHaveLength(1);
  });

  it('sends nothing on a socket the server is closing (it would only log an error)', () => {
    const { connection, socket } = connect();
    socket().opened();
    const before = socket().sent.length;
    socket().readyState = 2; // CLOSING: the server's close frame came, the close event not yet
    connection.subscribe('anything');
    void connection.refreshNow();
    expect(socket().sent).toHaveLength(before);
  });

  it('after a session ended by a password change, goes on when this console logged in again', async () => {
    let logins = 0;
    const onSessionEnded = vi.fn();
    const onConnection = vi.fn();
    const { socket, sockets } = connect({ onSessionEnded, onConnection, loginCount: () => logins });
    socket().opened();
    socket().closedBy(CREDENTIALS_ENDED);
    // The console's own login with the new password, while the socket waits to reconnect.
    logins++;
    await vi.advanceTimersByTimeAsync(RECONNECT_MS);
    expect(sockets).toHaveLength(2);
    expect(onSessionEnded).not.toHaveBeenCalled();
    expect(onConnection).not.toHaveBeenCalledWith('offline');
    // Ended elsewhere, with no new login since this socket opened: the login form, no more sockets.
    socket().opened();
    socket().closedBy(CREDENTIALS_ENDED);
    await vi.advanceTimersByTimeAsync(10 * RECONNECT_MS);
    expect(sockets).toHaveLength(2);
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
  });

  it('asks whether the session holds before reconnecting, and stops when it does not', async () => {
    let loggedIn = true;
    const onSessionEnded = vi.fn();
    const { socket, sockets } = connect({ onSessionEnded, stillLoggedIn: () => Promise.resolve(loggedIn) });
    socket().lost();
    await vi.advanceTimersByTimeAsync(RECONNECT_MS);
    expect(sockets).toHaveLength(2);
    loggedIn = false;
    socket().lost();
    await vi.advanceTimersByTimeAsync(10 * RECONNECT_MS);
    expect(sockets).toHaveLength(2);
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
  });

  it('ignores session events and passes others on', () => {
    const { socket, handlers } = connect();
    socket().opened();
    socket().receive({ event: 'session_opened', id: 1 });
    socket().receive({ event: 'session_closed', id: 1 });
    socket().receive({ event: 'pulse.traffic', data: [] });
    expect(handlers.onEvent).toHaveBeenCalledTimes(1);
    expect(handlers.onEvent).toHaveBeenCalledWith({ event: 'pulse.traffic', data: [] });
  });

  it('refreshNow asks at once, resolves on its own answer and keeps a single poll', async () => {
    const { connection, socket } = connect();
    socket().opened();
    socket().receive({ event: 'current_config', data: {}, partial_update: false });
    const done = vi.fn();
    void connection.refreshNow().then(done);
    expect(socket().sent).toEqual(['read_config', 'read_config_delta']);
    socket().receive({ event: 'current_config_delta', data: null, partial_update: false });
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toHaveBeenCalled();
    vi.advanceTimersByTime(DELTA_POLL_MS);
    expect(socket().sent).toEqual(['read_config', 'read_config_delta', 'read_config_delta']);
  });

  it('stops for good', () => {
    const { connection, socket, sockets } = connect();
    socket().opened();
    connection.stop();
    expect(sockets[0]!.closed).toBe(true);
    vi.advanceTimersByTime(RECONNECT_MS * 2);
    expect(sockets).toHaveLength(1);
  });
});
