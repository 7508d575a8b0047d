import { Accordion, Box, Button, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { AD_NEW_FILE_WEIGHT, deepEqual, type AdSchedule } from '@sluice/api';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useCanEdit } from '../../api/access.js';
import { useGlobal } from '../../api/use-live.js';
import { EditOnly } from '../../components/EditOnly.js';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { fetchAdSchedules, saveAdSchedules } from './ad-calls.js';
import { problemsByField } from './ad-form.js';
import { AdFilesBrowser } from './AdFilesBrowser.js';
import { AdSchedulePanel } from './AdSchedulePanel.js';
import { AdvertedStreams } from './AdvertedStreams.js';

const NO_SCHEDULES: AdSchedule[] = [];

/**
 * The ad injector page (spec 002 §2, §4, §5, §9): Adverted streams, the Ad schedules with Save and
 * Add schedule, and the fixed Files browser. Edits are a draft of the whole list against the last
 * saved copy (fetch_ad_schedules, read again when the live config's ad_schedules changes: another
 * console's save shows here). Save is off while saving, with errors, without changes or without a
 * VOD location; a failed save only ends the saving state.
 */
export function AdInjectorPage() {
  const client = useQueryClient();
  const canEdit = useCanEdit();
  const live = useGlobal('ad_schedules');
  const vods = useGlobal('vods');
  const locations = useMemo(() => Object.keys(vods ?? {}), [vods]);
  const query = useQuery({ queryKey: ['ad-schedules'], queryFn: fetchAdSchedules, retry: false });
  useEffect(() => {
    void client.invalidateQueries({ queryKey: ['ad-schedules'] });
  }, [client, live]);
  const saved = query.data ?? NO_SCHEDULES;
  const [draft, setDraft] = useState<AdSchedule[] | null>(null);
  const [saving, setSaving] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const schedules = draft ?? saved;
  const problems = useMemo(() => problemsByField(schedules), [schedules]);
  const changed = draft !== null && !deepEqual(draft, saved);
  const canSave = !saving && problems.size === 0 && changed && locations.length > 0;
  const blankExists = schedules.some((s) => s.name === '');

  const put = (index: number, next: AdSchedule | null) =>
    setDraft(
      next === null
        ? schedules.filter((_, i) => i !== index)
        : schedules.map((s, i) => (i === index ? next : s)),
    );
  const add = () => {
    setDraft([...schedules, { name: '', slots: [], files: [] }]);
    setOpen(String(schedules.length));
  };
  const save = async () => {
    setSaving(true);
    try {
      const list = await saveAdSchedules(schedules);
      client.setQueryData(['ad-schedules'], list);
      setDraft(null);
    } catch {
      // Spec 002 §4: a failed save only clears the saving state, with no message.
    } finally {
      setSaving(false);
    }
  };

  const openIndex = open === null ? -1 : Number(open);
  const openSchedule = schedules[openIndex];
  const toggleFile = (name: string, on: boolean) => {
    if (!openSchedule) return;
    const files = on
      ? [...openSchedule.files.filter((f) => f.name !== name), { name, weight: AD_NEW_FILE_WEIGHT }]
      : openSchedule.files.filter((f) => f.name !== name);
    put(openIndex, { ...openSchedule, files });
  };

  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack gap="md" component="section" aria-label="Ad injector">
          <Title order={2}>Ad injector</Title>
          <AdvertedStreams />
          <Title order={3}>Ad schedules</Title>
          {schedules.length === 0 && <Text c="dimmed">No ad schedules yet.</Text>}
          <ReadOnlyFields>
            <Accordion value={open} onChange={setOpen} variant="separated">
              {schedules.map((schedule, index) => (
                <AdSchedulePanel
                  key={index}
                  index={index}
                  schedule={schedule}
                  problems={problems}
                  onChange={(next) => put(index, next)}
                  onRemove={() => {
                    put(index, null);
                    setOpen(null);
                  }}
                />
              ))}
            </Accordion>
          </ReadOnlyFields>
          <EditOnly>
            <Group gap="sm">
              <Button onClick={() => void save()} disabled={!canSave} loading={saving}>
                Save
              </Button>
              <Button variant="light" onClick={add} disabled={saving || blankExists}>
                Add schedule
              </Button>
            </Group>
          </EditOnly>
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Box>
          <AdFilesBrowser
            locations={locations}
            checked={new Set(openSchedule?.files.map((f) => f.name) ?? [])}
            canCheck={canEdit && openSchedule !== undefined}
            onToggle={toggleFile}
          />
        </Box>
      </Grid.Col>
    </Grid>
  );
}
