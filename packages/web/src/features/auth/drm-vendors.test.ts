import { drmVendors } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { DRM_FIELDS, drmVendorChange, isDrmVendor } from './drm-vendors.js';

const keys = (vendor: keyof typeof DRM_FIELDS) => DRM_FIELDS[vendor].map((f) => f.key);

describe('DRM vendors', () => {
  it('lists the settings of spec 001 §9 for every vendor', () => {
    expect(Object.keys(DRM_FIELDS).sort()).toEqual([...drmVendors].sort());
    expect(keys('aes128')).toEqual(['drm_id', 'keyserver']);
    expect(keys('keyos')).toEqual(['drm_id', 'userkey']);
    expect(keys('widevine')).toEqual(['aes_key', 'iv', 'content_id', 'signer', 'keyserver']);
    expect(DRM_FIELDS.widevine.find((f) => f.key === 'content_id')?.optional).toBe(true);
    expect(keys('ezdrm_classic')).toEqual(['drm_id', 'user', 'password']);
    expect(keys('pallycon')).toEqual(['drm_id', 'enc_token']);
    expect(keys('irdeto')).toEqual(['drm_id', 'ic_host', 'account_id', 'user_name', 'password']);
  });

  it('a vendor change drops the old keys and meta.drm_id, keeping the resource id', () => {
    expect(drmVendorChange('keyos', { resource_id: 'r1' })).toEqual({
      drm: { vendor: 'keyos', resource_id: 'r1' },
      drmId: null,
    });
    expect(drmVendorChange('aes128', undefined)).toEqual({ drm: { vendor: 'aes128' }, drmId: null });
    expect(drmVendorChange('none', { resource_id: 'r1' })).toEqual({ drm: null, drmId: null });
  });

  it('knows a vendor from any other text', () => {
    expect(isDrmVendor('widevine')).toBe(true);
    expect(isDrmVendor('none')).toBe(false);
  });
});
