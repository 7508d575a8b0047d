import { adSchedules, type AdSchedule } from '@sluice/api';
import { z } from 'zod';
import { ApiError, jsonBody, requestJson } from '../../api/http-client.js';

/** GET fetch_ad_schedules (spec 002 §7): the saved schedules. */
export const fetchAdSchedules = (): Promise<AdSchedule[]> => requestJson('/fetch_ad_schedules', adSchedules);

const saved = z.looseObject({ ad_schedules: adSchedules });

/** POST save_ad_schedules with the whole list; resolves to the list as saved. */
export async function saveAdSchedules(list: AdSchedule[]): Promise<AdSchedule[]> {
  return (await requestJson('/save_ad_schedules', saved, jsonBody(list))).ad_schedules;
}

const adStreams = z.record(
  z.string(),
  z.array(z.looseObject({ name: z.string(), show_count: z.number(), view_count: z.number() })),
);
export type AdStreams = z.infer<typeof adStreams>;

/** GET ad_streams: per stream, per file, shows and views. A server without the call shows none. */
export async function fetchAdStreams(): Promise<AdStreams> {
  try {
    return await requestJson('/ad_streams', adStreams);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return {};
    throw error;
  }
}
