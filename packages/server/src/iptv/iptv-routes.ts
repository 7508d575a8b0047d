import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '@sluice/api';
import { getIn } from '../live/live-view.js';
import { jsonOnly } from '../http/body-types.js';
import type { OnRequestHook } from '../http/guard.js';
import type { Logger } from '../support/log.js';
import type { IptvPlugin } from './iptv-plugin.js';
import { buildPlaylist } from './playlist.js';
import { parsePlaylistRequest, PLAYLIST_PREFIX } from './playlist-request.js';
import { createInput, deleteInput, listInput, updateInput, UserInputError } from './user-input.js';
import type { IptvUser, UserStore } from './user-store.js';

export interface IptvRouteDeps {
  plugin: IptvPlugin;
  config: () => Config;
  /** The live view: a stream's recorded archive depth (stats.dvr_info.depth). */
  snapshot: () => Record<string, unknown>;
  view: OnRequestHook;
  edit: OnRequestHook;
  /** Whether the caller may read secrets (an edit login): view logins see `***` keys. */
  canReadSecrets: (request: FastifyRequest) => boolean;
  log: Logger;
}

const API = '/tv/api';
const hidden = (user: IptvUser): IptvUser => ({ ...user, key: '***' });

const sameKey = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** `http(s)://host` of the request: its Host when that is a host name or address, else the local address. */
function baseOf(request: FastifyRequest): string {
  const host = request.headers.host ?? '';
  const valid = /^([A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(:\d{1,5})?$/.test(host);
  const socket = request.raw.socket;
  const local = socket.localAddress?.includes(':') ? `[${socket.localAddress}]` : socket.localAddress;
  return `${request.protocol}://${valid ? host : `${local}:${socket.localPort}`}`;
}

/** The IPTV plugin's calls (docs/api.md "IPTV"): /tv/api (admin logins), playlists and /tv/auth (the key). */
export function registerIptv(app: FastifyInstance, deps: IptvRouteDeps): void {
  const { plugin } = deps;
  /** The store, following the config now (an enable answered a moment ago is already open). */
  const withStore = <T>(reply: FastifyReply, use: (store: UserStore) => T) => {
    plugin.apply(deps.config());
    const store = plugin.users();
    if ('error' in store) return reply.status(store.status).send({ error: store.error });
    try {
      return use(store);
    } catch (error) {
      if (error instanceof UserInputError) return reply.status(400).send({ error: error.message });
      throw error;
    }
  };

  app.get(`${API}/status`, { onRequest: deps.view }, async () => {
    plugin.apply(deps.config());
    return plugin.status();
  });
  app.get(`${API}/users`, { onRequest: deps.view }, async (request, reply) =>
    withStore(reply, (store) => {
      const { from, count, q } = listInput(request.query);
      const page = store.list(from, count, q);
      return deps.canReadSecrets(request) ? page : { ...page, users: page.users.map(hidden) };
    }),
  );
  app.post(`${API}/user_create`, { onRequest: [deps.edit, jsonOnly] }, async (request, reply) =>
    withStore(reply, (store) => {
      const user = store.create(createInput(request.body));
      deps.log.notice(`iptv: user ${user.id} created`);
      return { user };
    }),
  );
  app.post(`${API}/user_update`, { onRequest: [deps.edit, jsonOnly] }, async (request, reply) =>
    withStore(reply, (store) => {
      const { id, changes } = updateInput(request.body);
      const user = store.update(id, changes);
      if (!user) return reply.status(404).send({ error: `no IPTV user with id ${id}` });
      if (changes.key === null) {
        deps.log.notice(`iptv: user ${id} has a new key`);
        plugin.accessLost();
      }
      return { user };
    }),
  );
  app.post(`${API}/user_delete`, { onRequest: [deps.edit, jsonOnly] }, async (request, reply) =>
    withStore(reply, (store) => {
      const id = deleteInput(request.body);
      if (!store.remove(id)) return reply.status(404).send({ error: `no IPTV user with id ${id}` });
      deps.log.notice(`iptv: user ${id} deleted`);
      plugin.accessLost();
      return { ok: true };
    }),
  );

  // Playlists: the key is the credential, no admin login (set-top boxes and apps load them).
  app.get(`${PLAYLIST_PREFIX}*`, async (request, reply) => {
    const notFound = () => {
      // The path only (never the key), cut and without control characters.
      const path = (request.raw.url ?? '')
        .split('?')[0]!
        .slice(0, 120)
        .replace(/[^\x20-\x7e]/g, '?');
      deps.log.notice(`iptv: no such playlist ${path} (from ${request.ip})`);
      return reply.status(404).send({ error: 'no such playlist' });
    };
    const wanted = parsePlaylistRequest(request.raw.url ?? '');
    plugin.apply(deps.config());
    const store = plugin.users();
    if (!wanted || 'error' in store) return notFound();
    const user = store.user(wanted.id);
    if (!user) return notFound();
    if (!sameKey(user.key, wanted.key)) {
      deps.log.notice(`iptv: playlist of user ${user.id} asked with a wrong key from ${request.ip}`);
      return reply.status(403).send({ error: 'access denied' });
    }
    const config = deps.config();
    const snapshot = deps.snapshot();
    const text = buildPlaylist(config, {
      base: baseOf(request),
      token: user.key,
      type: wanted.type,
      recordedDepthS: (name) => {
        const depth = getIn(snapshot, ['streams', name, 'stats', 'dvr_info', 'depth']);
        return typeof depth === 'number' ? depth : undefined;
      },
    });
    return reply.type('audio/x-mpegurl; charset=utf-8').header('cache-control', 'no-cache').send(text);
  });

  // The iptv auth url answered over HTTP too, for other servers using this one as their backend.
  app.get('/tv/auth', async (request, reply) => {
    const token = (request.query as Record<string, unknown>).token;
    plugin.apply(deps.config());
    const verdict = plugin.check(typeof token === 'string' ? token : undefined);
    if (!verdict.allow) return reply.status(403).send({ error: 'access denied' });
    return reply.header('x-userid', verdict.userId ?? '').send({ ok: true });
  });
}
