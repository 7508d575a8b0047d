import { z } from 'zod';

/** One series of a Pulse answer: its tags and [time ms, value or null (nothing measured)] points. */
export const pulseAnswerSeries = z.object({
  tags: z.record(z.string(), z.string()),
  points: z.array(z.tuple([z.number(), z.number().nullable()])),
});
export type PulseAnswerSeries = z.infer<typeof pulseAnswerSeries>;

/**
 * `GET /flussonic/api/pulse?query=&from=&to=` (ms): the query's series over the range, at the
 * resolution the range allows (seconds for the last hour, minutes for 7 days, hours beyond) or the
 * query's period if longer; `step_ms` is the spacing of the points.
 */
export const pulseAnswer = z.object({
  query: z.string(),
  step_ms: z.number(),
  series: z.array(pulseAnswerSeries),
});
export type PulseAnswer = z.infer<typeof pulseAnswer>;

/**
 * The events websocket's `pulse_subscribe:<query>` topic: the first event holds the last minute,
 * then one a second with the points measured since the previous one.
 */
export const pulseSeriesEvent = pulseAnswer.extend({ event: z.literal('pulse.series') });
export type PulseSeriesEvent = z.infer<typeof pulseSeriesEvent>;
