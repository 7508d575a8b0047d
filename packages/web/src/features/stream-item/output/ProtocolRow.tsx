import type { ReactNode } from 'react';
import { Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { type ProtocolSwitch, protocolUrlState, switchOf, switchValue } from '@sluice/api';
import { useConfigField } from '../../global-config/global-fields.js';

const SWITCH_DATA = [
  { value: 'except', label: 'except' },
  { value: 'neutral', label: 'neutral' },
  { value: 'only', label: 'only' },
];

/** One protocol's switch (except / neutral / only) and its URLs, disabled or hidden per spec 001 §4. */
export function ProtocolRow({
  base,
  protocol,
  urls,
  hint,
}: {
  base: string[];
  protocol: string;
  urls: string[];
  hint?: ReactNode;
}) {
  const all = useConfigField<Record<string, boolean>>([...base, 'protocols']);
  const own = useConfigField<boolean>([...base, 'protocols', protocol]);
  const { disabled, hidden } = protocolUrlState(all.value, protocol);
  return (
    <Stack gap={4}>
      <Group gap="sm">
        <Text w={70} fw={500} tt="uppercase" size="sm">
          {protocol}
        </Text>
        <SegmentedControl
          size="xs"
          aria-label={`${protocol} switch`}
          data={SWITCH_DATA}
          value={switchOf(own.value)}
          onChange={(value) => own.set(switchValue(value as ProtocolSwitch))}
        />
      </Group>
      {!hidden &&
        urls.map((url) => (
          <TextInput
            key={url}
            readOnly
            disabled={disabled}
            aria-label={`${protocol} url`}
            value={url}
            maw={700}
          />
        ))}
      {!hidden && hint}
    </Stack>
  );
}
