/**
 * The HTTP-01 answers of the orders in progress: token → key authorization. LetsEncrypt fetches
 * `http://<domain>/.well-known/acme-challenge/<token>` on port 80 without credentials (RFC 8555
 * §8.3), so the route is public; it answers only tokens put here while an order runs, and each is
 * taken out as soon as its challenge is done, so nothing else can be read through it.
 */
export const CHALLENGE_PATH = '/.well-known/acme-challenge';

/** RFC 8555 tokens are base64url; anything else is not one of ours and is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{1,128}$/;

export class ChallengeAnswers {
  private readonly answers = new Map<string, string>();

  set(token: string, keyAuthorization: string): void {
    this.answers.set(token, keyAuthorization);
  }

  delete(token: string): void {
    this.answers.delete(token);
  }

  /** The key authorization for `token`, or undefined (the route answers 404). */
  get(token: string): string | undefined {
    return TOKEN.test(token) ? this.answers.get(token) : undefined;
  }

  get size(): number {
    return this.answers.size;
  }
}
