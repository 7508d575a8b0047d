import { createContext, type ReactNode, use, useCallback, useEffect, useMemo, useState } from 'react';

/**
 * A form's validation state: issues found by the config schema (keyed by dotted path) and errors
 * that inputs holding a draft report themselves (a web script row without a prefix, a bad key).
 * The form's Save is disabled while there are any.
 */
interface FormErrors {
  issues: ReadonlyMap<string, string>;
  report(id: string, message: string | undefined): void;
}

const FormErrorsContext = createContext<FormErrors | null>(null);

export function useFormErrorsState(issues: ReadonlyMap<string, string>) {
  const [reported, setReported] = useState<ReadonlyMap<string, string>>(() => new Map());
  const report = useCallback((id: string, message: string | undefined) => {
    setReported((previous) => {
      if (previous.get(id) === message) return previous;
      const next = new Map(previous);
      if (message === undefined) next.delete(id);
      else next.set(id, message);
      return next;
    });
  }, []);
  const value = useMemo(() => ({ issues, report }), [issues, report]);
  return { value, invalid: issues.size > 0 || reported.size > 0 };
}

export function FormErrorsProvider({ value, children }: { value: FormErrors; children: ReactNode }) {
  return <FormErrorsContext value={value}>{children}</FormErrorsContext>;
}

/** The schema's first message for `path` or anything under it. */
export function useIssue(path: readonly string[]): string | undefined {
  const issues = use(FormErrorsContext)?.issues;
  const key = path.join('.');
  if (!issues) return undefined;
  for (const [at, message] of issues) if (at === key || at.startsWith(`${key}.`)) return message;
  return undefined;
}

/** Reports a draft's error to the enclosing form for as long as it stands. */
export function useReportError(id: string, message: string | undefined): void {
  const report = use(FormErrorsContext)?.report;
  useEffect(() => {
    if (!report) return;
    report(id, message);
    return () => report(id, undefined);
  }, [report, id, message]);
}
