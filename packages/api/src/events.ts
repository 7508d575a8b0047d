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
