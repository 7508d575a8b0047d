import { Fieldset, SimpleGrid } from '@mantine/core';
import type { Dvr } from '@sluice/api';
import { IntegerInput } from '../../components/IntegerInput.js';
import { UnitInput } from '../../components/UnitInput.js';
import { sizeUnits, timeUnits } from '../../lib/units.js';
import { withField } from './dvr-form.js';

const gigabytes = sizeUnits.find((u) => u.label === 'GB') ?? sizeUnits[0]!;
const hours = timeUnits.find((u) => u.label === 'hours') ?? timeUnits[0]!;

/**
 * Limits (spec 002 §2–3, the fields of spec 001 §5): disk_limit in percent of the partition (0 to
 * 100), disk_space in bytes, dvr_limit (archive depth) in seconds; an emptied field is removed.
 */
export function DvrLimitsSection({ dvr, onChange }: { dvr: Dvr; onChange: (dvr: Dvr) => void }) {
  return (
    <Fieldset legend="Limits">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <IntegerInput
          label="Disk limit, %"
          value={dvr.disk_limit}
          onChange={(value) =>
            onChange(withField(dvr, 'disk_limit', value === null ? undefined : Math.min(value, 100)))
          }
        />
        <UnitInput
          label="Disk space"
          value={dvr.disk_space}
          units={sizeUnits}
          defaultUnit={gigabytes}
          onChange={(value) => onChange(withField(dvr, 'disk_space', value ?? undefined))}
        />
        <UnitInput
          label="Archive depth"
          value={dvr.dvr_limit}
          units={timeUnits}
          defaultUnit={hours}
          onChange={(value) => onChange(withField(dvr, 'dvr_limit', value ?? undefined))}
        />
      </SimpleGrid>
    </Fieldset>
  );
}
