import { TextInput } from '@mantine/core';
import { dvrNameProblem } from '@sluice/api';
import { useEffect, useEffectEvent, useState } from 'react';
import { useReportError } from '../../components/form-context.js';
import { DVR_NAME_DEBOUNCE_MS } from './dvr-form.js';

/**
 * A DVR's name (spec 002 §4, §5): what is typed stays a draft, checked at once (required, unique
 * among the other DVRs) and applied as a rename once it has been valid for 300 ms, or when the
 * field is left. An invalid draft keeps its message and disables Save.
 */
export function DvrNameInput({
  panelId,
  name,
  otherNames,
  onApply,
}: {
  panelId: number;
  name: string;
  otherNames: readonly string[];
  onApply: (name: string) => void;
}) {
  const [draft, setDraft] = useState<string>();
  const problem = draft === undefined ? undefined : dvrNameProblem(draft, otherNames);
  useReportError(`dvr-name-${panelId}`, problem);

  const apply = (typed: string) => {
    onApply(typed);
    setDraft(undefined);
  };
  // The latest onApply when the timer fires: the render that started it may be old by then.
  const applyLater = useEffectEvent(apply);
  useEffect(() => {
    if (draft === undefined || problem) return;
    const timer = setTimeout(() => applyLater(draft), DVR_NAME_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, problem]);

  return (
    <TextInput
      label="Name"
      value={draft ?? name}
      error={problem}
      onChange={(event) => setDraft(event.currentTarget.value)}
      onBlur={() => {
        if (draft !== undefined && !problem) apply(draft);
      }}
    />
  );
}
