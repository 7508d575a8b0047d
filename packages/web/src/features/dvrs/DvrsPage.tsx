import { Accordion, Button, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useSaveFlow } from '../../api/use-save-flow.js';
import { FormErrorsProvider, useFormErrorsState } from '../../components/form-context.js';
import { DvrPanel } from './DvrPanel.js';
import { rootProblems } from './root-problems.js';
import { useDvrs } from './use-dvrs.js';
import { useItemDvrRoots } from './use-item-dvr-roots.js';
import { usePanelIds } from './use-panel-ids.js';
import { SaveBar } from '../../components/SaveBar.js';

const KEYS = ['dvrs'] as const;

/**
 * The DVR storage page (spec 002 §2, §4, §5): one expandable panel per global DVR, edited as one
 * unsaved change of `dvrs`; Save only when something changed and nothing is invalid. With only one
 * DVR its panel opens by itself; Add DVR opens the new one alone.
 */
export function DvrsPage() {
  const { dvrs, names, put, add, rename } = useDvrs();
  const itemRoots = useItemDvrRoots();
  const ids = usePanelIds();
  const problems = useMemo(() => rootProblems(dvrs, names, itemRoots), [dvrs, names, itemRoots]);
  const issues = useMemo(
    () => new Map([...problems].map(([name, message]) => [`dvrs.${name}.root`, message])),
    [problems],
  );
  const form = useFormErrorsState(issues);
  const flow = useSaveFlow({ keys: KEYS, invalid: form.invalid });
  // Bumped by Reset: the panels are drawn again, which drops the drafts typed in them.
  const [generation, setGeneration] = useState(0);

  const [opened, setOpened] = useState<string[]>([]);
  const [seenCount, setSeenCount] = useState(0);
  const only = names.length === 1 ? names[0] : undefined;
  if (names.length !== seenCount) {
    setSeenCount(names.length);
    if (only !== undefined) setOpened([String(ids.idOf(only))]);
  }

  const addDvr = () => setOpened([String(ids.idOf(add()))]);
  const reset = () => {
    flow.discard();
    setGeneration((g) => g + 1);
  };

  return (
    <FormErrorsProvider value={form.value}>
      <Stack gap="md" maw={1000} component="section" aria-label="DVR storages">
        <Title order={2}>DVR storages</Title>
        {names.length === 0 && <Text c="dimmed">No DVR storages configured.</Text>}
        <Accordion
          multiple
          value={opened}
          onChange={setOpened}
          variant="separated"
          keepMountedMode="display-none"
        >
          {names.map((name) => {
            const dvr = dvrs[name];
            if (!dvr) return null;
            const panelId = ids.idOf(name);
            return (
              <DvrPanel
                key={`${panelId}:${generation}`}
                panelId={panelId}
                name={name}
                dvr={dvr}
                otherNames={names.filter((other) => other !== name)}
                rootProblem={problems.get(name)}
                onChange={(next) => put(name, next)}
                onRename={(next) => {
                  ids.move(name, next);
                  rename(name, next);
                }}
                onDelete={() => put(name, null)}
              />
            );
          })}
        </Accordion>
        <SaveBar onSave={flow.save} canSave={flow.canSave} status={flow.status}>
          <Button variant="default" onClick={reset} disabled={!flow.changed || flow.saving}>
            Reset
          </Button>
          <Button variant="light" onClick={addDvr}>
            Add DVR
          </Button>
        </SaveBar>
      </Stack>
    </FormErrorsProvider>
  );
}
