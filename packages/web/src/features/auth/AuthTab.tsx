import { Stack, Title } from '@mantine/core';
import { useMemo } from 'react';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { TokenInput } from '../../components/TokenInput.js';
import { useConfigField } from '../global-config/global-fields.js';
import { ItemForm } from '../item-page/ItemForm.js';
import { useMediaName } from '../item-page/use-media-name.js';
import { AuthTypeSection } from './AuthTypeSection.js';
import { CountryLimitSection } from './CountryLimitSection.js';
import { DrmSection } from './DrmSection.js';

function DomainsField({ base }: { base: string[] }) {
  const field = useConfigField<string[]>([...base, 'auth', 'domains']);
  return (
    <TokenInput
      label={<ChangedLabel label="Allowed domains" changed={field.changed} />}
      aria-label="Allowed domains"
      description="Pages allowed to embed the player (by referer), separated by comma or space"
      value={field.value}
      onChange={field.set}
      error={field.issue}
      maw={500}
    />
  );
}

/**
 * The Auth tab (spec 001 §2 Auth, test id media-auth) of any item, saved as one delta keyed by the
 * item: `base` is ['streams', name], ['lives', prefix] or ['sources', position]. `hasName`: the item
 * is a single named media, which alone offers the IPTV and Watcher types (spec 001 §4). `drm`: false
 * where the server encrypts nothing (a VOD).
 */
export function AuthTab({ base, hasName, drm = true }: { base: string[]; hasName: boolean; drm?: boolean }) {
  return (
    <Stack data-testid="media-auth">
      <ItemForm base={base} gap="lg" maw={800}>
        <Title order={4}>Authentication</Title>
        <AuthTypeSection base={base} hasName={hasName} />
        <DomainsField base={base} />
        <CountryLimitSection base={base} />
        {drm && <DrmSection base={base} />}
      </ItemForm>
    </Stack>
  );
}

/** stream-item/auth */
export function StreamAuthTab() {
  const name = useMediaName();
  const base = useMemo(() => ['streams', name], [name]);
  return <AuthTab base={base} hasName />;
}

/** location-item/auth */
export function LocationAuthTab() {
  const prefix = useMediaName();
  const base = useMemo(() => ['lives', prefix], [prefix]);
  return <AuthTab base={base} hasName={false} />;
}
