import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { adSchedules, type AdSchedule, type Config } from '@sluice/api';
import { jsonOnly } from '../http/body-types.js';
import type { OnRequestHook } from '../http/guard.js';
import type { Logger } from '../support/log.js';
import { resolveAdFile } from './ad-files.js';
import { adScheduleRefusal, placeOf } from './schedule-config.js';

export interface AdScheduleRouteDeps {
  config: () => Config;
  /** The config store's modify: durable, and the live view (and open consoles) follow it. */
  save: (delta: { ad_schedules: AdSchedule[] }) => Promise<unknown>;
  view: OnRequestHook;
  edit: OnRequestHook;
  log: Logger;
}

const API = '/flussonic/api';
/** Bounds on what one save may hold: far above any schedule an operator writes, far below harm. */
export const AD_SCHEDULE_LIMITS = { bodyBytes: 1024 * 1024, schedules: 1000, slots: 1440, files: 1000 };

/** The first reason the list cannot be saved, or undefined. */
export function refusalOf(body: unknown, config: Config): string | undefined {
  const parsed = adSchedules.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'the body';
    return `the body must be a list of ad schedules ({name, slots: [{from, duration}], files: [{name, weight}]}): ${where}: ${issue?.message ?? 'invalid'}`;
  }
  const list = parsed.data;
  const { schedules, slots, files } = AD_SCHEDULE_LIMITS;
  if (list.length > schedules) return `at most ${schedules} ad schedules`;
  for (const s of list) {
    if (s.slots.length > slots) return `at most ${slots} time slots in a schedule`;
    if (s.files.length > files) return `at most ${files} files in a schedule`;
  }
  const refusal = adScheduleRefusal(list);
  if (refusal) return refusal;
  // Spec 002 §6: saving needs a VOD location (the files are VOD files).
  if (Object.keys(config.vods ?? {}).length === 0) return 'ad schedules need a VOD location: add one first';
  for (const [i, s] of list.entries()) {
    for (const [j, file] of s.files.entries()) {
      const found = resolveAdFile(config, file.name);
      if ('error' in found) return `${placeOf(s, i, ['files', j])}: ${found.error}`;
    }
  }
  return undefined;
}

/** fetch_ad_schedules and save_ad_schedules (spec 002 §7; docs/api.md "Ad schedules"). */
export function registerAdSchedules(app: FastifyInstance, deps: AdScheduleRouteDeps): void {
  app.get(
    `${API}/fetch_ad_schedules`,
    { onRequest: deps.view },
    async () => deps.config().ad_schedules ?? [],
  );
  app.post(
    `${API}/save_ad_schedules`,
    { onRequest: [deps.edit, jsonOnly], bodyLimit: AD_SCHEDULE_LIMITS.bodyBytes },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const refusal = refusalOf(request.body, deps.config());
      if (refusal) {
        deps.log.notice(`save_ad_schedules refused: ${refusal}`);
        return reply.status(400).send({ error: refusal });
      }
      const list = adSchedules.parse(request.body);
      await deps.save({ ad_schedules: list });
      return { ok: true, ad_schedules: deps.config().ad_schedules ?? [] };
    },
  );
}
