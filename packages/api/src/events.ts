import { z } from 'zod';

/**
 * The events websocket (spec 000 §7). The console sends plain text commands: `read_config`,
 * `read_config_delta`, `subscribe:{topic}`, `unsubscribe:{topic}` and the topic commands of spec 001
 * §7. The server answers with JSON objects carrying an `event` name.
 */
export const wsCommands = {
  readConfig: 'read_config',
  readConfigDelta: 'read_config_delta',
} as const;

export const currentConfigEvent = z.object({
  event: z.literal('current_config'),
  data: z.record(z.string(), z.unknown()),
  partial_update: z.boolean(),
});

export const currentConfigDeltaEvent = z.object({
  event: z.literal('current_config_delta'),
  data: z.record(z.string(), z.unknown()).nullable(),
  partial_update: z.boolean(),
});

export const errorEvent = z.object({ event: z.literal('error'), message: z.string() });

export const serverEvent = z.union([
  currentConfigEvent,
  currentConfigDeltaEvent,
  errorEvent,
  z.looseObject({ event: z.string() }),
]);
export type ServerEvent = z.infer<typeof serverEvent>;
export type CurrentConfigEvent = z.infer<typeof currentConfigEvent>;
export type CurrentConfigDeltaEvent = z.infer<typeof currentConfigDeltaEvent>;

/** A player's session (spec 001 §3 "Session"); duration in ms. */
export const clientSession = z.looseObject({
  id: z.string(),
  type: z.string(),
  ip: z.string(),
  country: z.string().optional(),
  bytes_sent: z.number(),
  duration: z.number(),
  token: z.string().optional(),
  user_id: z.string().optional(),
  user_agent: z.string(),
});
export type ClientSession = z.infer<typeof clientSession>;

/** The answer to `sessions?name={name}` (spec 001 §7). */
export const sessionsEvent = z.object({
  event: z.literal('sessions'),
  name: z.string(),
  sessions: z.array(clientSession),
});
export type SessionsEvent = z.infer<typeof sessionsEvent>;

/** A line of a stream's log, after `log_media_start:{name}` (spec 001 §7), until `log_media_stop:{name}`. */
export const logEntryEvent = z.object({ event: z.literal('log.entry'), name: z.string(), text: z.string() });
export type LogEntryEvent = z.infer<typeof logEntryEvent>;

/** One series of a pulse topic: [time ms, value] points, oldest first. */
export const pulseSeries = z.object({
  label: z.string(),
  points: z.array(z.tuple([z.number(), z.number()])),
});

/**
 * Traffic of a pulse topic (`pulse_subscribe:media/{name}`, spec 001 §7): per-minute series of
 * kbit/s in and out. The first event holds the history (partial_update false); later ones, the
 * newest points only (partial_update true).
 */
export const pulseTrafficEvent = z.object({
  event: z.literal('pulse.traffic'),
  topic: z.string(),
  resolution: z.literal('minute'),
  series: z.array(pulseSeries),
  partial_update: z.boolean(),
});
export type PulseTrafficEvent = z.infer<typeof pulseTrafficEvent>;
