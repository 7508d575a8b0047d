import type { FastifyRequest } from 'fastify';
import { PULSE_INVALID_FORMAT, type PulseAnswer, type PulseSeriesEvent, parsePulseQuery } from '@sluice/api';
import type { EventClient } from '../http/events-hub.js';
import { HttpError } from '../http/errors.js';
import { runPulseQuery } from './pulse-query-run.js';
import { RESOLUTIONS } from './pulse-resolutions.js';
import type { PulseService } from './pulse-service.js';

/** A range asked without `from` covers this much before `to`. */
const DEFAULT_RANGE_MS = 3_600_000;
/** What the first event of a `pulse_subscribe:<query>` topic holds. */
const FIRST_EVENT_MS = 60_000;

/**
 * `GET /flussonic/api/pulse?query=<q>&from=<ms>&to=<ms>` (docs/pulse.md): the query's series over
 * the range; 400 "invalid format" (spec 000 §8) for a query the grammar refuses.
 */
export function pulseRangeHandler(pulse: PulseService) {
  return async (request: FastifyRequest): Promise<PulseAnswer> => {
    const params = request.query as Record<string, unknown>;
    const text = params.query;
    const query = typeof text === 'string' ? parsePulseQuery(text) : undefined;
    if (!query) throw new HttpError(400, PULSE_INVALID_FORMAT);
    const now = Date.now();
    const toMs = millis(params.to, 'to') ?? now;
    const fromMs = millis(params.from, 'from') ?? toMs - DEFAULT_RANGE_MS;
    if (fromMs > toMs) throw new HttpError(400, 'from: must not be after to');
    return runPulseQuery(pulse.store, query, { fromMs, toMs: Math.min(toMs, now), nowMs: now });
  };
}

function millis(value: unknown, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(ms)) throw new HttpError(400, `${name}: milliseconds since 1970, once`);
  return ms;
}

/**
 * The events websocket's `pulse_subscribe:<query>` (docs/pulse.md): the last minute at once, then
 * each second the points measured since (a second is sent once it has passed, so the values the
 * engine writes during it are in; with a period, the open period is sent again as it fills).
 */
export function pulseQueryTopic(pulse: PulseService) {
  return (text: string, client: EventClient): (() => void) | undefined => {
    const query = parsePulseQuery(text);
    if (!query) {
      client.send({ event: 'error', message: PULSE_INVALID_FORMAT, topic: text });
      return undefined;
    }
    const stepMs = Math.max(1000, (query.period_s ?? 0) * 1000);
    let sentUntilMs = Math.floor(Date.now() / 1000) * 1000 - FIRST_EVENT_MS - 1000;
    const send = (nowMs: number) => {
      const untilMs = Math.floor(nowMs / 1000) * 1000 - 1000;
      if (untilMs <= sentUntilMs) return;
      // With a period, the bucket still filling is sent again, its value updated (same time).
      const fromMs = Math.floor((sentUntilMs + 1000) / stepMs) * stepMs;
      const answer = runPulseQuery(pulse.store, query, {
        fromMs,
        toMs: untilMs,
        nowMs,
        resolution: RESOLUTIONS[0],
      });
      sentUntilMs = untilMs;
      client.send({ event: 'pulse.series', ...answer, query: text } satisfies PulseSeriesEvent);
    };
    send(Date.now());
    return pulse.onTick(send);
  };
}
