import { Fieldset, SimpleGrid, Stack } from '@mantine/core';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { KeyValueEditor } from '../../components/KeyValueEditor.js';
import { UnitInput } from '../../components/UnitInput.js';
import { bitrateUnits } from '../../lib/units.js';
import { NvidiaStatus } from '../nvidia/NvidiaStatus.js';
import {
  LogLevelField,
  PortField,
  PortListField,
  SwitchField,
  TextField,
  useConfigField,
} from './global-fields.js';

const megabits = bitrateUnits.find((u) => u.label === 'Mbps') ?? bitrateUnits[0]!;

function TotalBandwidthField() {
  const field = useConfigField<number>(['total_bandwidth']);
  return (
    <UnitInput
      label={<ChangedLabel label="Total bandwidth" changed={field.changed} />}
      aria-label="Total bandwidth"
      units={bitrateUnits}
      defaultUnit={megabits}
      value={field.value}
      onChange={field.set}
      error={field.issue}
    />
  );
}

function MetaField() {
  const field = useConfigField<Record<string, unknown>>(['meta']);
  return (
    <KeyValueEditor
      name="meta"
      label={<ChangedLabel label="Meta" changed={field.changed} />}
      value={field.value}
      onChange={field.set}
    />
  );
}

/** Additional settings (spec 000 §2). */
export function AdditionalSection() {
  return (
    <Fieldset legend="Additional">
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <LogLevelField />
          <TextField path={['pulsedb']} label="PulseDB path" />
          <TextField path={['session_log']} label="Session log path" />
          <PortListField name="admin_http" label="Admin HTTP ports" />
          <PortListField name="admin_https" label="Admin HTTPS ports" />
          <TotalBandwidthField />
          {/* No MySQL API port: this server has no MySQL-protocol API (docs/config.md, `mysql`). */}
          <PortField name="snmp" label="SNMP port" />
          {/* The SNMP port answers only this community (docs/api.md "SNMP"); none, no answers. */}
          <TextField path={['snmp_community']} label="SNMP community" secret />
        </SimpleGrid>
        <SwitchField name="nvidia_monitor" label="Nvidia monitor" />
        <NvidiaStatus />
        <MetaField />
      </Stack>
    </Fieldset>
  );
}
