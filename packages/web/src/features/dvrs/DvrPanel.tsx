import { Accordion, ActionIcon, Badge, Group, Stack, Text } from '@mantine/core';
import type { Dvr } from '@sluice/api';
import { EditOnly } from '../../components/EditOnly.js';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { orderedDisks } from './dvr-form.js';
import { DvrAdditionalSection } from './DvrAdditionalSection.js';
import { DvrDisksSection } from './DvrDisksSection.js';
import { DvrLimitsSection } from './DvrLimitsSection.js';
import { DvrScheduleSection } from './DvrScheduleSection.js';
import { DvrStorageSection } from './DvrStorageSection.js';

/**
 * The summary line (spec 002 §2): the name at the root, and a RAID 0 marker with the disk count; a
 * red mark tells why Save is off while the panel with the bad root is closed.
 */
function DvrSummary({ name, dvr, rootProblem }: { name: string; dvr: Dvr; rootProblem: string | undefined }) {
  const disks = orderedDisks(dvr.disks).length;
  return (
    <Group gap="sm">
      <Text fw={600}>
        {name} at {dvr.root ?? '—'}
      </Text>
      {dvr.raid === 0 && (
        <Badge variant="light" tt="none">
          RAID 0 · {disks} {disks === 1 ? 'disk' : 'disks'}
        </Badge>
      )}
      {rootProblem && (
        <Text component="span" c="red" title={rootProblem}>
          ●
        </Text>
      )}
    </Group>
  );
}

/** One DVR storage as an expandable panel: summary and delete, then its sections. */
export function DvrPanel({
  panelId,
  name,
  dvr,
  otherNames,
  rootProblem,
  onChange,
  onRename,
  onDelete,
}: {
  panelId: number;
  name: string;
  dvr: Dvr;
  otherNames: readonly string[];
  rootProblem: string | undefined;
  onChange: (dvr: Dvr) => void;
  onRename: (name: string) => void;
  onDelete: () => void;
}) {
  return (
    <Accordion.Item value={String(panelId)} role="region" aria-label={`DVR ${name}`}>
      <Group gap={0} wrap="nowrap">
        <Accordion.Control>
          <DvrSummary name={name} dvr={dvr} rootProblem={rootProblem} />
        </Accordion.Control>
        <EditOnly>
          <ActionIcon color="red" variant="light" mx="sm" aria-label={`delete ${name}`} onClick={onDelete}>
            ✕
          </ActionIcon>
        </EditOnly>
      </Group>
      <Accordion.Panel>
        <ReadOnlyFields>
          <Stack gap="md">
            <DvrStorageSection
              panelId={panelId}
              name={name}
              dvr={dvr}
              otherNames={otherNames}
              rootProblem={rootProblem}
              onChange={onChange}
              onRename={onRename}
            />
            <DvrAdditionalSection dvr={dvr} onChange={onChange} />
            <DvrLimitsSection dvr={dvr} onChange={onChange} />
            <DvrScheduleSection dvr={dvr} onChange={onChange} />
            <DvrDisksSection dvr={dvr} onChange={onChange} />
          </Stack>
        </ReadOnlyFields>
      </Accordion.Panel>
    </Accordion.Item>
  );
}
