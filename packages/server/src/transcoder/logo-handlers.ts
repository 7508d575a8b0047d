import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config, LogoList } from '@sluice/api';
import { HttpError } from '../http/errors.js';
import { imageType, LogoRefused, type LogoStore, logoNameError, MAX_LOGO_BYTES } from './logo-store.js';

/** The streams whose transcoder shows logo `name` ('@name' as a video track's logo or alogo path). */
export function streamsUsingLogo(config: Config, name: string): string[] {
  const path = `@${name}`;
  const out: string[] = [];
  for (const [stream, item] of Object.entries(config.streams ?? {})) {
    const tracks = Object.values(item.transcoder?.video ?? {});
    if (tracks.some((t) => t.logo?.path.trim() === path || t.alogo?.path.trim() === path)) out.push(stream);
  }
  return out;
}

const nameOf = (request: FastifyRequest): string => {
  const name = (request.params as Record<string, string>).name ?? '';
  const error = logoNameError(name);
  if (error) throw new HttpError(400, error);
  return name;
};

/** A logo path that is a link (or no plain file) is answered 409 with why, never followed. */
function refusedAs409<A extends unknown[], R>(handler: (...args: A) => Promise<R>) {
  return async (...args: A): Promise<R> => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof LogoRefused) throw new HttpError(409, error.message);
      throw error;
    }
  };
}

/** The logo calls of spec 001 §7: list, get, upload or replace, delete. */
export function logoHandlers(store: LogoStore, config: () => Config) {
  const handlers = {
    list: async (): Promise<LogoList> => {
      const out: LogoList = {};
      for (const name of await store.names()) out[name] = { streams: streamsUsingLogo(config(), name) };
      return out;
    },
    get: async (request: FastifyRequest, reply: FastifyReply) => {
      const name = nameOf(request);
      const logo = await store.read(name);
      if (!logo) throw new HttpError(404, `no logo named ${name}`);
      return reply.type(logo.type).header('cache-control', 'no-cache').send(logo.bytes);
    },
    /** The body is the picture's bytes, as they are (any content type). */
    put: async (request: FastifyRequest) => {
      const name = nameOf(request);
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0)
        throw new HttpError(400, 'the body must be the logo picture (PNG, JPEG, GIF, WebP or BMP bytes)');
      if (!imageType(body))
        throw new HttpError(
          400,
          `logo ${name} is no PNG, JPEG, GIF, WebP or BMP picture; nothing was stored`,
        );
      await store.write(name, body);
      return { ok: true };
    },
    remove: async (request: FastifyRequest) => {
      const name = nameOf(request);
      const users = streamsUsingLogo(config(), name);
      if (users.length > 0)
        throw new HttpError(
          409,
          `logo ${name} is used by stream(s) ${users.join(', ')}: remove it from them first`,
        );
      if (!(await store.remove(name))) throw new HttpError(404, `no logo named ${name}`);
      return { ok: true };
    },
  };
  return {
    list: refusedAs409(handlers.list),
    get: refusedAs409(handlers.get),
    put: refusedAs409(handlers.put),
    remove: refusedAs409(handlers.remove),
  };
}

/**
 * Logo uploads are raw bytes of any content type: this scope (a Fastify plugin of its own, so the
 * app's text parsers stay as they are) takes every body as a Buffer, up to MAX_LOGO_BYTES.
 */
export function acceptRawBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_LOGO_BYTES }, (_req, body, done) =>
    done(null, body),
  );
}
