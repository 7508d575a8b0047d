import { Stack, TextInput } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import type { LiveState } from '../../api/live-state.js';
import { useItemSaveFlow } from '../../api/use-item-save-flow.js';
import { useLive } from '../../api/use-live.js';
import { pathTo } from '../../app/routes.js';
import { FormErrorsProvider, useFormErrorsState } from '../../components/form-context.js';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { TextField } from '../global-config/global-fields.js';
import { streamNameProblem } from '../media-list/item-names.js';
import { SaveBar } from '../../components/SaveBar.js';

const NO_ISSUES: ReadonlyMap<string, string> = new Map();
const selectStreams = (state: LiveState) => state.server.streams;

/** Name, Title and Description (meta.comment) with Save; a new name moves the stream and the page. */
export function StreamIdentityForm({ name }: { name: string }) {
  const [draftName, setDraftName] = useState(name);
  const streams = useLive(selectStreams);
  const renamed = draftName !== name;
  const nameProblem = renamed ? streamNameProblem(draftName, streams) : undefined;
  const form = useFormErrorsState(NO_ISSUES);
  const path = useMemo(() => ['streams', name], [name]);
  const flow = useItemSaveFlow(path, form.invalid || nameProblem !== undefined);
  const navigate = useNavigate();

  const save = useCallback(async () => {
    const saved = await flow.save(renamed ? draftName : undefined);
    if (saved && renamed) await navigate(pathTo('stream-item/overview', { mediaName: draftName }));
  }, [flow, renamed, draftName, navigate]);

  return (
    <FormErrorsProvider value={form.value}>
      <ReadOnlyFields>
        <Stack gap="sm" maw={600}>
          <TextInput
            label="Name"
            aria-label="Name"
            value={draftName}
            onChange={(event) => setDraftName(event.currentTarget.value.replace(/\s+/g, ''))}
            error={nameProblem}
          />
          <TextField path={[...path, 'title']} label="Title" />
          <TextField path={[...path, 'meta', 'comment']} label="Description" />
          <SaveBar
            onSave={save}
            canSave={flow.canSave || (renamed && !nameProblem && !flow.saving)}
            status={flow.status}
          />
        </Stack>
      </ReadOnlyFields>
    </FormErrorsProvider>
  );
}
