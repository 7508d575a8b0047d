import type {
  ClientSession as SessionEvent,
  LogEntryEvent,
  PulseTrafficEvent,
  SessionsEvent,
} from '@sluice/api';
import type { ClientSessions } from '../delivery/client-sessions.js';
import type { Engine } from '../engine/engine.js';
import type { TrafficHistory, TrafficPoint } from '../pulse/traffic-history.js';
import type { EventClient, EventsHub, TopicHandler } from './events-hub.js';
import { HIDDEN, hideInText } from './redact.js';

/** Lines of the stream's log sent when a log subscription starts (the console keeps up to 1000). */
const LOG_BACKLOG = 200;

const decode = (argument: string): string => {
  try {
    return decodeURIComponent(argument);
  } catch {
    return argument;
  }
};

/**
 * The stream topics of the events websocket (spec 001 §7): `sessions?name=` (the clients tab polls
 * it each second), `log_media_start:` / `log_media_stop:` (the live log panel) and
 * `pulse_subscribe:media/{name}` / `pulse_unsubscribe:` (the traffic chart).
 */
export function registerMediaTopics(
  hub: EventsHub,
  engine: Engine,
  sessions: ClientSessions,
  traffic: TrafficHistory,
  /** `pulse_subscribe:<query>`: any other pulse topic is a Pulse query (pulse/pulse-http.ts). */
  pulseQuery?: TopicHandler,
): void {
  hub.handle('sessions?name=', (argument, client) => {
    const name = decode(argument);
    const now = Date.now();
    const event: SessionsEvent = {
      event: 'sessions',
      name,
      sessions: sessions.list(name).map((s) => toEvent(s, now, client.canReadSecrets === true)),
    };
    client.send(event);
  });

  hub.handle(
    'log_media_start:',
    (argument, client) => {
      const name = decode(argument);
      const runtime = engine.get(name);
      if (!runtime) {
        client.send({ event: 'error', message: `no stream named ${name}` });
        return;
      }
      // ffmpeg quotes its input url in its messages: a view-only reader gets them without passwords.
      const shown = client.canReadSecrets ? (text: string) => text : hideInText;
      const send = (text: string) =>
        client.send({ event: 'log.entry', name, text: shown(text) } satisfies LogEntryEvent);
      for (const line of runtime.log.all.slice(-LOG_BACKLOG)) send(line);
      return runtime.onLog(send);
    },
    'log_media_stop:',
  );

  hub.handle(
    'pulse_subscribe:',
    (topic, client) => {
      const name = /^media\/(.+)$/.exec(decode(topic))?.[1];
      if (!name && pulseQuery) return pulseQuery(decode(topic), client);
      if (!name) {
        client.send({ event: 'error', message: `unknown pulse topic ${topic}: use media/{name}` });
        return;
      }
      sendTraffic(client, topic, traffic.points(name), false);
      return traffic.onPoint(name, (point) => sendTraffic(client, topic, [point], true));
    },
    'pulse_unsubscribe:',
  );
}

function sendTraffic(client: EventClient, topic: string, points: TrafficPoint[], partial: boolean): void {
  const event: PulseTrafficEvent = {
    event: 'pulse.traffic',
    topic,
    resolution: 'minute',
    series: [
      { label: 'input', points: points.map((p) => [p.minute, p.inKbit]) },
      { label: 'output', points: points.map((p) => [p.minute, p.outKbit]) },
    ],
    partial_update: partial,
  };
  client.send(event);
}

/** A session as the clients tab shows it; a viewer's token (it plays the stream) only to edit callers. */
function toEvent(session: ClientSession, nowMs: number, canReadSecrets: boolean): SessionEvent {
  const event: SessionEvent = {
    id: session.id,
    type: session.type,
    ip: session.ip,
    bytes_sent: session.bytesSent,
    duration: nowMs - session.createdAt,
    user_agent: session.userAgent,
  };
  if (session.token) event.token = canReadSecrets ? session.token : HIDDEN;
  if (session.country) event.country = session.country;
  if (session.userId) event.user_id = session.userId;
  return event;
}

type ClientSession = ReturnType<ClientSessions['list']>[number];
