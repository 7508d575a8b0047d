import { drmVendors } from '@sluice/api';

export type DrmVendor = (typeof drmVendors)[number];

/** A DRM setting: a key of drm, or drm_id, which lives in meta (spec 001 §3). */
export interface DrmField {
  key: string;
  label: string;
  optional?: boolean;
}

const DRM_ID: DrmField = { key: 'drm_id', label: 'DRM ID' };
const KEYSERVER: DrmField = { key: 'keyserver', label: 'Key server' };
const USER: DrmField = { key: 'user', label: 'User' };
const PASSWORD: DrmField = { key: 'password', label: 'Password' };

/** Spec 001 §9 "DRM vendors": each vendor's settings. */
export const DRM_FIELDS: Record<DrmVendor, DrmField[]> = {
  aes128: [DRM_ID, KEYSERVER],
  sample_aes: [DRM_ID, KEYSERVER],
  conax: [DRM_ID, KEYSERVER],
  keyos: [DRM_ID, { key: 'userkey', label: 'User key' }],
  widevine: [
    { key: 'aes_key', label: 'AES key' },
    { key: 'iv', label: 'IV' },
    { key: 'content_id', label: 'Content ID', optional: true },
    { key: 'signer', label: 'Signer' },
    KEYSERVER,
  ],
  ezdrm: [DRM_ID, USER, PASSWORD],
  ezdrm_classic: [DRM_ID, USER, PASSWORD],
  pallycon: [DRM_ID, { key: 'enc_token', label: 'Encryption token' }],
  gsdrm: [DRM_ID, KEYSERVER],
  irdeto: [
    DRM_ID,
    { key: 'ic_host', label: 'IC host' },
    { key: 'account_id', label: 'Account ID' },
    { key: 'user_name', label: 'User name' },
    PASSWORD,
  ],
};

export const isDrmVendor = (value: unknown): value is DrmVendor =>
  typeof value === 'string' && (drmVendors as readonly string[]).includes(value);

/**
 * What choosing a vendor writes (spec 001 §4 "DRM vendor"): the old vendor's keys and meta.drm_id
 * are cleared. The stream's resource_id is not a vendor key and stays while a vendor is chosen.
 * 'none' removes the whole drm section.
 */
export function drmVendorChange(
  vendor: DrmVendor | 'none',
  current: { resource_id?: string } | undefined,
): { drm: { vendor: DrmVendor; resource_id?: string } | null; drmId: null } {
  if (vendor === 'none') return { drm: null, drmId: null };
  const resourceId = current?.resource_id;
  return { drm: resourceId === undefined ? { vendor } : { vendor, resource_id: resourceId }, drmId: null };
}

/** Spec 001 §2/§9: a vendor the server stores but does not apply is said so. */
export const notAppliedNote = (vendor: string): string =>
  `This server stores the ${vendor} settings but does not apply them: segments are served without ${vendor} protection.`;
