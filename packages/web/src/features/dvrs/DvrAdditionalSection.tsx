import { Fieldset, SimpleGrid, Switch, TextInput } from '@mantine/core';
import type { Dvr } from '@sluice/api';
import { withField } from './dvr-form.js';
import { NotAppliedMark } from '../../components/NotAppliedMark.js';

/**
 * Additional (spec 002 §2): the cached metadata subdirectory (`index`) and 'Indexing for streams',
 * which is on unless `no_index` is set.
 */
export function DvrAdditionalSection({ dvr, onChange }: { dvr: Dvr; onChange: (dvr: Dvr) => void }) {
  const name = dvr.name ?? '';
  return (
    <Fieldset legend="Additional">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Cached metadata subdirectory"
          value={dvr.index ?? ''}
          onChange={(event) => onChange(withField(dvr, 'index', event.currentTarget.value))}
        />
        <Switch
          label="Indexing for streams"
          mt="md"
          checked={dvr.no_index !== true}
          onChange={(event) =>
            onChange(withField(dvr, 'no_index', event.currentTarget.checked ? undefined : true))
          }
        />
      </SimpleGrid>
      {dvr.index && <NotAppliedMark path={['dvrs', name, 'index']} label="Cached metadata subdirectory" />}
      {dvr.no_index === true && (
        <NotAppliedMark path={['dvrs', name, 'no_index']} label="Indexing for streams" />
      )}
    </Fieldset>
  );
}
