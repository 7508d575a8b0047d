import type { AuthBackend } from '@sluice/api';
import { askBackend, type BackendAnswer } from './http-backend.js';
import { ipMatches } from './ip-match.js';
import { allow, deny, type PlayRequest, type Verdict } from './play-request.js';

/**
 * A named auth backend (`auth_backend NAME { … }`, used as `auth://NAME`), in this order; the
 * first rule that matches decides (docs/api.md "Play authorization"):
 *  1. deny tokens, 2. allow tokens (the request's ?token=),
 *  3. deny ips, 4. allow ips (plain addresses or CIDR ranges),
 *  5. deny countries, 6. allow countries (the client's country by the local GeoIP lookup),
 *  7. deny uas, 8. allow uas (a case-insensitive part of the User-Agent),
 *  9. its HTTP backends, asked at once: the first to answer allow (2xx) or deny (403) decides;
 *     errors and other statuses are no answer,
 * 10. allow_default: allow when true, else deny.
 */
export async function checkAuthBackend(
  name: string,
  backend: AuthBackend,
  request: PlayRequest,
  ask: (url: string, request: PlayRequest) => Promise<BackendAnswer> = askBackend,
  onProblem: (problem: string) => void = () => {},
): Promise<Verdict> {
  const listed = listedVerdict(name, backend, request);
  if (listed) return listed;
  const urls = (backend.backends ?? []).map((b) => b.url);
  if (urls.length > 0) {
    const answer = await firstAnswer(
      urls.map((url) => ask(url, request)),
      onProblem,
    );
    if (answer?.answer === 'allow') return allow({ userId: answer.userId, ttlMs: answer.ttlMs });
    if (answer?.answer === 'deny') return deny(`auth backend ${name}: a backend denied`, answer.ttlMs);
  }
  return backend.allow_default === true
    ? allow()
    : deny(`auth backend ${name}: no rule allowed it and allow_default is off`);
}

/** Steps 1–8: the allow and deny lists; undefined when none matches. */
export function listedVerdict(name: string, backend: AuthBackend, request: PlayRequest): Verdict | undefined {
  const ua = request.userAgent.toLowerCase();
  const checks: [string, (values: string[]) => boolean][] = [
    ['token', (values) => request.token !== undefined && values.includes(request.token)],
    ['ip', (values) => ipMatches(request.ip, values)],
    [
      'country',
      (values) => request.country !== '' && values.some((c) => c.toUpperCase() === request.country),
    ],
    ['user agent', (values) => values.some((v) => v !== '' && ua.includes(v.toLowerCase()))],
  ];
  const lists = { token: 'tokens', ip: 'ips', country: 'countries', 'user agent': 'uas' } as const;
  for (const [what, matches] of checks) {
    const key = lists[what as keyof typeof lists];
    if (matches(backend.deny?.[key] ?? [])) return deny(`auth backend ${name}: ${what} denied`);
    if (matches(backend.allow?.[key] ?? [])) return allow();
  }
  return undefined;
}

/** The first allow or deny among `answers`; undefined when all gave none. */
async function firstAnswer(
  answers: Promise<BackendAnswer>[],
  onProblem: (problem: string) => void,
): Promise<Exclude<BackendAnswer, { answer: 'none' }> | undefined> {
  return new Promise((resolve) => {
    let left = answers.length;
    for (const pending of answers) {
      void pending.then((answer) => {
        if (answer.answer === 'none') {
          onProblem(answer.problem);
          if (--left === 0) resolve(undefined);
        } else resolve(answer);
      });
    }
  });
}
