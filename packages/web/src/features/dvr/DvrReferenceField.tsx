import { Anchor, Group, NativeSelect } from '@mantine/core';
import { Link } from 'react-router';
import { useChanged, useGlobal } from '../../api/use-live.js';
import { pathTo } from '../../app/routes.js';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import type { DvrSettings } from './use-dvr-settings.js';

const CUSTOM = '';

/** Spec 001 §2 DVR: the selector of a global DVR config (config.dvrs), linked to the dvrs route. */
export function DvrReferenceField({ settings }: { settings: DvrSettings }) {
  const dvrs = useGlobal('dvrs');
  const changed = useChanged([...settings.dvrPath, 'reference']);
  const reference = settings.dvr?.reference;
  const names = Object.keys(dvrs ?? {});
  // A reference to a DVR that is gone still shows, so the operator sees what the item names.
  if (reference !== undefined && !names.includes(reference)) names.push(reference);
  return (
    <Group align="flex-end" gap="md">
      <NativeSelect
        label={<ChangedLabel label="Global DVR config" changed={changed} />}
        aria-label="Global DVR config"
        data={[
          { value: CUSTOM, label: 'none: custom settings' },
          ...names.map((name) => ({ value: name, label: name })),
        ]}
        value={reference ?? CUSTOM}
        onChange={(event) =>
          settings.setReference(event.currentTarget.value === CUSTOM ? null : event.currentTarget.value)
        }
        maw={300}
      />
      <Anchor component={Link} to={pathTo('dvrs')} size="sm" pb={8}>
        Global DVR configs
      </Anchor>
    </Group>
  );
}
