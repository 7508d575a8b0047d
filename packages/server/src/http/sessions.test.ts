import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '@sluice/api';
import { SessionRegistry } from './sessions.js';

const ADMIN = { login: 'admin', password: 'pw' };
const VIEW = { login: 'viewer', password: 'vpw' };
const config = (over: Partial<Config> = {}) => ({ edit_auth: ADMIN, view_auth: VIEW, ...over }) as Config;

describe('SessionRegistry', () => {
  let dir: string | undefined;
  afterEach(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

  it('ends a view session when the view password changes, and an edit one when the admin password does', () => {
    const sessions = new SessionRegistry();
    const view = sessions.create(VIEW, 'view');
    const edit = sessions.create(ADMIN, 'edit');
    expect(sessions.lookup(view, config())).toBe('view');
    expect(sessions.lookup(view, config({ view_auth: { ...VIEW, password: 'new' } }))).toBeUndefined();
    expect(sessions.lookup(view, config())).toBeUndefined();
    expect(sessions.lookup(edit, config({ edit_auth: { ...ADMIN, password: 'new' } }))).toBeUndefined();
  });

  it('expires after its idle time', () => {
    let now = 0;
    const sessions = new SessionRegistry({ ttlMs: 1000, now: () => now });
    const id = sessions.create(ADMIN, 'edit');
    now = 900;
    expect(sessions.lookup(id, config())).toBe('edit');
    now = 1800;
    expect(sessions.lookup(id, config())).toBe('edit');
    now = 2801;
    expect(sessions.lookup(id, config())).toBeUndefined();
  });

  it('outlives a restart through its file (readable by the server only), which holds no cookie value', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sluice-sessions-'));
    const file = join(dir, 'sessions.json');
    const id = new SessionRegistry({ file }).create(ADMIN, 'edit');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).not.toContain(id);
    const again = new SessionRegistry({ file });
    expect(again.lookup(id, config())).toBe('edit');
    again.delete(id);
    expect(new SessionRegistry({ file }).lookup(id, config())).toBeUndefined();
  });
});
