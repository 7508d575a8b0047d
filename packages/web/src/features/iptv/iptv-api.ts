import { z } from 'zod';
import { jsonBody, request } from '../../api/http-client.js';

/** Spec 002 §3 "IPTV user": the fields the console shows and edits. */
export const iptvUser = z.looseObject({
  id: z.union([z.number(), z.string()]),
  name: z.string().nullish(),
  email: z.string().nullish(),
  key: z.string().nullish(),
  max_sessions: z.number().nullish(),
});
export type IptvUser = z.infer<typeof iptvUser>;

/** What the new-user row sends: no id or key yet, the server makes them. */
export interface NewIptvUser {
  name: string;
  email: string;
  max_sessions?: number;
}

/** Spec 002 §9: users load 30 at a time. */
export const USERS_PAGE_SIZE = 30;

/** The IPTV calls sit at /tv/api, not under the Flussonic API prefix (spec 002 §7). */
const TV_API = '/tv/api';

/** GET /tv/api/status (Sluice's own, docs/api.md): whether the store is there and where it would go. */
export const iptvStatus = z.looseObject({
  configured: z.boolean(),
  database: z.string().nullish(),
  default_database: z.string().nullish(),
  error: z.string().nullish(),
  user_count: z.number().nullish(),
});
export type IptvStatus = z.infer<typeof iptvStatus>;

export async function fetchStatus(): Promise<IptvStatus> {
  const response = await request(`${TV_API}/status`);
  return iptvStatus.parse(await response.json());
}

/** Spec 002 §8: the IPTV store error, shown on the database-path field. */
export const STORE_ERROR = 'unable to access database on path';
/** Spec 002 §8. */
export const NOT_CONFIGURED = 'IPTV is not configured';

/** A view-only login reads every key as this (docs/api.md): no playlist can be made from it. */
export const HIDDEN_KEY = '***';

const usersAnswer = z.looseObject({ users: z.array(iptvUser) });

/** GET /tv/api/users?count=30&from=N[&q=filter]: one page of users, `from` users skipped. */
export async function fetchUsers(from: number, q: string): Promise<IptvUser[]> {
  const query = new URLSearchParams({ count: String(USERS_PAGE_SIZE), from: String(from) });
  if (q !== '') query.set('q', q);
  const response = await request(`${TV_API}/users?${query}`);
  return usersAnswer.parse(await response.json()).users;
}

/** POSTs a user JSON body; answers the user as the server keeps it when it sends one back. */
async function postUser(call: string, body: unknown): Promise<IptvUser | undefined> {
  const response = await request(`${TV_API}/${call}`, jsonBody(body));
  const answer: unknown = await response.json().catch(() => undefined);
  const direct = iptvUser.safeParse(answer);
  if (direct.success) return direct.data;
  const wrapped = z.looseObject({ user: iptvUser }).safeParse(answer);
  return wrapped.success ? wrapped.data.user : undefined;
}

export const createUser = (user: NewIptvUser) => postUser('user_create', user);
export const updateUser = (user: IptvUser) => postUser('user_update', user);
export const deleteUser = async (user: IptvUser): Promise<void> => {
  await postUser('user_delete', { id: user.id });
};

/** Spec 002 §7 playlist links: {host}/tv/playlists/{user id}.m3u?key={key}, &type=mpegts for MPEG-TS. */
export function playlistUrl(host: string, user: IptvUser, type: 'hls' | 'mpegts'): string {
  const query = new URLSearchParams({ key: user.key ?? '' });
  if (type === 'mpegts') query.set('type', 'mpegts');
  return `${host}/tv/playlists/${encodeURIComponent(String(user.id))}.m3u?${query}`;
}
