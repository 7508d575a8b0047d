import { isPlainObject } from '@sluice/api';
import type { UserChanges } from './user-store.js';

/** Bad input, answered 400 with its message (docs/api.md "IPTV"). */
export class UserInputError extends Error {}

export const MAX_NAME_LENGTH = 200;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_USER_SESSIONS = 10_000;
export const MAX_PAGE = 1000;
export const DEFAULT_PAGE = 30;

const fail = (message: string): never => {
  throw new UserInputError(message);
};

function body(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : fail('the body must be a JSON object (a user)');
}

function name(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') return fail('name is required');
  const trimmed = value.trim();
  return trimmed.length > MAX_NAME_LENGTH
    ? fail(`name is longer than ${MAX_NAME_LENGTH} characters`)
    : trimmed;
}

function email(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') return fail('email is required');
  const trimmed = value.trim();
  if (trimmed.length > MAX_EMAIL_LENGTH || !/^[^\s@]+@[^\s@]+$/.test(trimmed))
    fail('email must look like name@host');
  return trimmed;
}

/** null or 0: no limit (stored as null). */
function maxSessions(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_USER_SESSIONS)
    fail(`max_sessions must be an integer from 0 to ${MAX_USER_SESSIONS}`);
  return n === 0 ? null : (n as number);
}

export function userId(value: unknown): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0
    ? n
    : fail('id must be a positive integer');
}

export function createInput(value: unknown): { name: string; email: string; max_sessions: number | null } {
  const b = body(value);
  return { name: name(b.name), email: email(b.email), max_sessions: maxSessions(b.max_sessions) };
}

/** The fields present replace the stored ones; `key: null` makes a new key, a key string is ignored. */
export function updateInput(value: unknown): { id: number; changes: UserChanges } {
  const b = body(value);
  const changes: UserChanges = {};
  if ('name' in b) changes.name = name(b.name);
  if ('email' in b) changes.email = email(b.email);
  if ('max_sessions' in b) changes.max_sessions = maxSessions(b.max_sessions);
  if (b.key === null) changes.key = null;
  return { id: userId(b.id), changes };
}

export function deleteInput(value: unknown): number {
  return userId(body(value).id);
}

function integerParam(value: unknown, what: string, min: number, max: number, otherwise: number): number {
  if (value === undefined || value === '') return otherwise;
  const n = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  return n >= min && n <= max ? n : fail(`${what} must be an integer from ${min} to ${max}`);
}

export function listInput(query: unknown): { from: number; count: number; q: string | undefined } {
  const params = isPlainObject(query) ? query : {};
  const q = params.q;
  if (q !== undefined && (typeof q !== 'string' || q.length > MAX_EMAIL_LENGTH))
    fail(`q must be one text of at most ${MAX_EMAIL_LENGTH} characters`);
  return {
    count: integerParam(params.count, 'count', 1, MAX_PAGE, DEFAULT_PAGE),
    from: integerParam(params.from, 'from', 0, 1e9, 0),
    q: typeof q === 'string' && q.trim() !== '' ? q.trim() : undefined,
  };
}
