import { config as configSchema } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { parseConfigText, serializeConfig } from '../config/text/index.js';
import { retentionOf } from './session-retention.js';

describe('session log and per-address session directives in the config file', () => {
  const text =
    'session_log /var/log/sessions;\nsession_log_days 30;\nsession_log_max_mb 64;\nmax_sessions_per_ip 20;\n';
  const values = {
    session_log: '/var/log/sessions',
    session_log_days: 30,
    session_log_max_mb: 64,
    max_sessions_per_ip: 20,
  };

  it('reads them as numbers, and writes them back', () => {
    expect(parseConfigText(text).config).toEqual(values);
    expect(parseConfigText(serializeConfig(values)).config).toEqual(values);
    expect(configSchema.safeParse(values).success).toBe(true);
  });

  it('refuses zero with a message naming the directive', () => {
    const parsed = configSchema.safeParse({ session_log_max_mb: 0 });
    expect(parsed.error?.issues[0]?.message).toBe('session_log_max_mb is at least 1');
  });

  it('gives the session log its retention: the directives, else 90 days and 256 MB', () => {
    expect(retentionOf(values)).toEqual({ maxAgeDays: 30, maxBytes: 64 * 1024 * 1024 });
    expect(retentionOf({})).toEqual({ maxAgeDays: 90, maxBytes: 256 * 1024 * 1024 });
  });
});
