import { z } from 'zod';
import type { Delta } from './edits.js';
import { API_BASE, ApiError, jsonBody, request, requestJson, textBody } from './http-client.js';

/** Top-level key that makes modify_config replace the whole config (spec 000 §4 Upload config). */
export const RESET_MARKER = 'reset';

/**
 * POST {api_base}/modify_config: a nested delta, null deleting (spec 000 §7). With `basedOn` (the
 * config revision the edit was made at) the server refuses it 409 when someone else changed the
 * same item since (isStale). Resolves with the config's new revision.
 */
export async function modifyConfig(delta: Delta, basedOn?: string): Promise<string | undefined> {
  const init = jsonBody(delta);
  if (basedOn) init.headers = { ...(init.headers as Record<string, string>), 'if-match': `"${basedOn}"` };
  const response = await request(`${API_BASE}/modify_config`, init);
  const answer = (await response.json().catch(() => ({}))) as { revision?: unknown };
  return typeof answer.revision === 'string' ? answer.revision : undefined;
}

/** A save refused because someone else changed what it changes since it was based (409). */
export const isStale = (error: unknown): boolean => error instanceof ApiError && error.status === 409;

/** GET {api_base}/read_config as the text to save in a file. */
export async function readConfigText(): Promise<string> {
  const response = await request(`${API_BASE}/read_config`);
  return response.text();
}

/** Sends an exported config back whole: the file's contents plus the reset marker. */
export async function importConfig(fileText: string): Promise<void> {
  const parsed: unknown = JSON.parse(fileText);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('the file does not hold a config object');
  }
  await modifyConfig({ ...(parsed as Delta), [RESET_MARKER]: true });
}

export const readRawConfig = async (): Promise<string> =>
  (await request(`${API_BASE}/read_raw_config`)).text();

/** A raw config the server refused, with where it stopped reading. */
export class RawConfigError extends Error {
  constructor(
    message: string,
    readonly line: number | undefined,
    readonly column: number | undefined,
  ) {
    super(message);
    this.name = 'RawConfigError';
  }
}

const rawError = z.object({ error: z.string(), line: z.number().optional(), column: z.number().optional() });

async function rawCall(path: string, text: string): Promise<void> {
  try {
    await requestJson(path, z.looseObject({ ok: z.boolean() }), textBody(text));
  } catch (error) {
    const body =
      error instanceof ApiError && error.status === 400 ? rawError.safeParse(error.body) : undefined;
    if (body?.success) throw new RawConfigError(body.data.error, body.data.line, body.data.column);
    throw error;
  }
}

export const parseRawConfig = (text: string) => rawCall('/parse_raw_config', text);
export const saveRawConfig = (text: string) => rawCall('/save_raw_config', text);
