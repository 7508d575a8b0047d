import type { z } from 'zod';

/** The error body every failed call answers with: one sentence an operator can act on. */
export interface ApiError {
  error: string;
}

/** Turns zod issues into "streams.foo.urls.0.url: a source url must not be empty; …". */
export function formatIssues(error: z.ZodError, prefix: (string | number)[] = []): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))].join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
