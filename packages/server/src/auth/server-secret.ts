import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The secret's file in the data folder (next to the config). Deleting it changes every derived value. */
export const SECRET_FILE = 'server.secret';

/**
 * This server's own secret: 32 random bytes made on first start and kept in the data folder,
 * readable by the server's user only. Values the server hands out and must recognise later (the
 * admin token, the aes128 keys it makes itself) are HMACs of it, so they survive restarts and
 * say nothing about the admin password.
 */
export class ServerSecret {
  private readonly secret: Buffer;

  constructor(dataDir: string) {
    const path = join(dataDir, SECRET_FILE);
    let secret: Buffer | undefined;
    try {
      secret = Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (!secret || secret.length < 32) {
      secret = randomBytes(32);
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      writeFileSync(path, `${secret.toString('hex')}\n`, { mode: 0o600 });
    }
    this.secret = secret;
  }

  derive(purpose: string): Buffer {
    return createHmac('sha256', this.secret).update(purpose).digest();
  }

  /**
   * The console players' token (spec 001 §6): `?token=` with it plays any stream past play
   * authorization. Given in server info to callers with credentials.
   */
  get adminToken(): string {
    return this.derive('sluice admin token v1').toString('hex');
  }

  isAdminToken(token: string | undefined): boolean {
    if (!token) return false;
    const expected = Buffer.from(this.adminToken);
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
