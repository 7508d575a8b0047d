import { Checkbox, Fieldset, NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import type { Dvr } from '@sluice/api';
import { orderedDisks, withField, withRaid0 } from './dvr-form.js';
import { DvrNameInput } from './DvrNameInput.js';

/**
 * Storage (spec 002 §2, §5): name, root, RAID 0 and disks to write (both disabled while the root is
 * empty; disks to write also while RAID 0 is off, and only 1 to the count of disks), copy location.
 */
export function DvrStorageSection({
  panelId,
  name,
  dvr,
  otherNames,
  rootProblem,
  onChange,
  onRename,
}: {
  panelId: number;
  name: string;
  dvr: Dvr;
  otherNames: readonly string[];
  rootProblem: string | undefined;
  onChange: (dvr: Dvr) => void;
  onRename: (name: string) => void;
}) {
  const root = dvr.root ?? '';
  const raid0 = dvr.raid === 0;
  const diskCount = orderedDisks(dvr.disks).length;
  const activeChoices = [
    { value: '', label: 'all' },
    ...Array.from({ length: diskCount }, (_, i) => ({ value: String(i + 1), label: String(i + 1) })),
  ];

  return (
    <Fieldset legend="Storage">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <DvrNameInput panelId={panelId} name={name} otherNames={otherNames} onApply={onRename} />
        <TextInput
          label="Root"
          value={root}
          error={rootProblem}
          onChange={(event) => onChange(withField(dvr, 'root', event.currentTarget.value))}
        />
        <Checkbox
          label="RAID 0"
          mt="md"
          checked={raid0}
          disabled={root === ''}
          onChange={(event) => onChange(withRaid0(dvr, event.currentTarget.checked))}
        />
        <NativeSelect
          label="Disks to write"
          data={activeChoices}
          value={dvr.active === undefined ? '' : String(dvr.active)}
          disabled={root === '' || !raid0}
          onChange={(event) => {
            const value = event.currentTarget.value;
            onChange(withField(dvr, 'active', value === '' ? undefined : Number(value)));
          }}
        />
        <TextInput
          label="Copy chunks to this location"
          value={dvr.copy ?? ''}
          onChange={(event) => onChange(withField(dvr, 'copy', event.currentTarget.value))}
        />
      </SimpleGrid>
    </Fieldset>
  );
}
