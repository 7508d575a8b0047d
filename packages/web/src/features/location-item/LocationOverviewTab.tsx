import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { LiveState } from '../../api/live-state.js';
import { useItemSaveFlow } from '../../api/use-item-save-flow.js';
import { useLive } from '../../api/use-live.js';
import { pathTo } from '../../app/routes.js';
import { FormErrorsProvider, useFormErrorsState } from '../../components/form-context.js';
import { TextField } from '../global-config/global-fields.js';
import { locationNameProblem, required } from '../media-list/item-names.js';
import { useLocationBase } from './use-location.js';
import { SaveBar } from '../../components/SaveBar.js';

const NO_ISSUES: ReadonlyMap<string, string> = new Map();
const selectTaken = (state: LiveState) => ({ lives: state.server.lives, vods: state.server.vods });
const sameTaken = (a: ReturnType<typeof selectTaken>, b: ReturnType<typeof selectTaken>) =>
  a.lives === b.lives && a.vods === b.vods;

/** Name (the prefix) and Description; a new prefix moves the location and the page. */
export function LocationOverviewTab() {
  const { prefix, base } = useLocationBase();
  const [name, setName] = useState(prefix);
  const taken = useLive(selectTaken, sameTaken);
  const renamed = name !== prefix;
  const problem = !name ? required('Name') : renamed ? locationNameProblem(name, taken) : undefined;
  const form = useFormErrorsState(NO_ISSUES);
  const flow = useItemSaveFlow(base, form.invalid || problem !== undefined);
  const navigate = useNavigate();
  const save = async () => {
    const saved = await flow.save(renamed ? name : undefined);
    if (saved && renamed) await navigate(pathTo('location-item/overview', { mediaName: name }));
  };
  return (
    <FormErrorsProvider value={form.value}>
      <ReadOnlyFields>
        <Stack gap="sm" maw={600}>
          <TextInput
            label="Name"
            aria-label="Name"
            value={name}
            onChange={(event) => setName(event.currentTarget.value.replace(/\s+/g, ''))}
            error={problem}
          />
          <TextField path={[...base, 'meta', 'comment']} label="Description" />
          <SaveBar
            onSave={save}
            canSave={flow.canSave || (renamed && !problem && !flow.saving)}
            status={flow.status}
          />
        </Stack>
      </ReadOnlyFields>
    </FormErrorsProvider>
  );
}
