import { Stack, Switch, Title } from '@mantine/core';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { NotAppliedMark } from '../../components/NotAppliedMark.js';
import { useConfigField } from '../global-config/global-fields.js';
import { CheckedField } from './CheckedField.js';
import { DvrPathField, PATH_HINT } from './DvrPathField.js';
import {
  formatNumber,
  formatSize,
  formatTime,
  parsePercent,
  parsePort,
  parseSize,
  parseTime,
} from './dvr-units.js';
import type { DvrSettings } from './use-dvr-settings.js';

/**
 * Spec 001 §2 DVR settings: path, disk limits, archive depth, replication. The limits apply to a
 * dvr that exists: an own path or a global DVR config.
 */
export function DvrSettingsFields({ settings }: { settings: DvrSettings }) {
  const { dvrPath, dvr } = settings;
  const at = (key: string) => [...dvrPath, key];
  const replicate = useConfigField<boolean>(at('dvr_replicate'));
  const referenced = dvr?.reference !== undefined;
  const inactive = dvr?.root === undefined && !referenced;
  return (
    <Stack gap="sm">
      <Title order={4}>DVR settings</Title>
      {!referenced && (
        <DvrPathField
          path={at('root')}
          label="Path"
          description={PATH_HINT}
          value={dvr?.root}
          onCommit={settings.setRoot}
        />
      )}
      <CheckedField
        path={at('disk_limit')}
        label="Disk limit"
        description="Percent of the disk the archive may fill, 0 to 100"
        format={formatNumber}
        parse={parsePercent}
        disabled={inactive}
      />
      <CheckedField
        path={at('disk_space')}
        label="Disk space"
        description="Space the archive may take: 1024 (GiB), 500Mb, 32gb, 2TB"
        format={formatSize}
        parse={parseSize}
        disabled={inactive}
      />
      <CheckedField
        path={at('dvr_limit')}
        label="Archive depth"
        description="How long the archive is kept: 3600, 90m, 12h, 7d, 2w"
        format={formatTime}
        parse={parseTime}
        disabled={inactive}
      />
      <Switch
        label={<ChangedLabel label="Replication" changed={replicate.changed} />}
        aria-label="Replication"
        checked={replicate.value === true}
        onChange={(event) => replicate.set(event.currentTarget.checked ? true : null)}
        disabled={inactive}
      />
      <CheckedField
        path={at('replication_port')}
        label="Replication port"
        format={formatNumber}
        parse={parsePort}
        disabled={inactive}
      />
      {(replicate.value === true || dvr?.replication_port !== undefined) && (
        <NotAppliedMark path={at('dvr_replicate')} label="Replication" />
      )}
    </Stack>
  );
}
