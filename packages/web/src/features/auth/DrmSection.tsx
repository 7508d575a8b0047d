import { Alert, NativeSelect, Stack, Title } from '@mantine/core';
import { drmVendors } from '@sluice/api';
import { useServerInfo } from '../../api/server-info.js';
import { useEdit } from '../../api/use-live.js';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { TextField, useConfigField } from '../global-config/global-fields.js';
import { DRM_FIELDS, drmVendorChange, isDrmVendor, notAppliedNote } from './drm-vendors.js';
import { commitFocusedDraft } from './commit-focused-draft.js';

const VENDOR_OPTIONS = ['none', ...drmVendors];

/**
 * DRM (spec 001 §3 drm, §4 "DRM vendor", §9 DRM vendors): the vendor and its keys; drm_id is kept
 * in meta; standalone streams also take a resource id. The DRM check of spec 001 §5 always passes,
 * so nothing here holds Save back.
 */
export function DrmSection({ base }: { base: string[] }) {
  const drmPath = [...base, 'drm'];
  const drm = useConfigField<{ vendor?: string; resource_id?: string }>(drmPath);
  const vendorChanged = useConfigField<string>([...drmPath, 'vendor']).changed;
  const edit = useEdit();
  const applied = useServerInfo().data?.capabilities.drm_applied;
  const vendor = isDrmVendor(drm.value?.vendor) ? drm.value.vendor : undefined;
  const standalone = base[0] === 'streams';

  const choose = (next: string) => {
    commitFocusedDraft();
    const change = drmVendorChange(isDrmVendor(next) ? next : 'none', drm.value);
    edit(drmPath, change.drm);
    edit([...base, 'meta', 'drm_id'], change.drmId);
  };

  return (
    <Stack gap="sm">
      <Title order={4}>DRM</Title>
      <NativeSelect
        label={<ChangedLabel label="DRM vendor" changed={vendorChanged} />}
        aria-label="DRM vendor"
        data={VENDOR_OPTIONS}
        value={vendor ?? 'none'}
        onChange={(event) => choose(event.currentTarget.value)}
        maw={300}
      />
      {vendor && applied && !applied.includes(vendor) && (
        <Alert color="yellow" aria-label="DRM not applied">
          {notAppliedNote(vendor)}
        </Alert>
      )}
      {vendor &&
        DRM_FIELDS[vendor].map((field) => (
          <TextField
            key={`${vendor}:${field.key}`}
            path={field.key === 'drm_id' ? [...base, 'meta', 'drm_id'] : [...drmPath, field.key]}
            label={field.optional ? `${field.label} (optional)` : field.label}
            secret={field.key === 'password'}
          />
        ))}
      {vendor && standalone && <TextField path={[...drmPath, 'resource_id']} label="Resource ID" />}
    </Stack>
  );
}
