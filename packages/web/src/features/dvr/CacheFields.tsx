import { Stack, Text, Title } from '@mantine/core';
import { useEdit, useView } from '../../api/use-live.js';
import { NotAppliedMark } from '../../components/NotAppliedMark.js';
import { CheckedField } from './CheckedField.js';
import { DvrPathField } from './DvrPathField.js';
import { formatSize, formatTime, parseSize, parseTime } from './dvr-units.js';

/** Spec 001 §2, §3: the 'SSD disk cache' section (cache.path, disk_limit in bytes, time_limit in seconds). */
export function CacheFields({ cachePath }: { cachePath: string[] }) {
  const at = (key: string) => [...cachePath, key];
  const path = useView<string>(at('path'));
  const edit = useEdit();
  return (
    <Stack gap="sm" component="section" aria-label="SSD disk cache">
      <Title order={4}>SSD disk cache</Title>
      <Text size="sm">
        Cache requested archive segments. Useful even if no local dvr defined, for proxied remote dvr.
      </Text>
      {path !== undefined && <NotAppliedMark path={at('path')} label="SSD disk cache" />}
      <DvrPathField
        path={at('path')}
        label="Cache path"
        value={path}
        // A cache without a path caches nowhere: clearing it removes the cache settings.
        onCommit={(value) => edit(value === null ? cachePath : at('path'), value)}
      />
      <CheckedField
        path={at('disk_limit')}
        label="Cache disk limit"
        description="Size of the cache: 1024 (GiB), 500Mb, 100gb"
        format={formatSize}
        parse={parseSize}
        disabled={path === undefined}
      />
      <CheckedField
        path={at('time_limit')}
        label="Cache time limit"
        description="How long a cached segment is kept: 3600, 90m, 12h, 7d"
        format={formatTime}
        parse={parseTime}
        disabled={path === undefined}
      />
    </Stack>
  );
}
