import { AuthTab } from '../auth/AuthTab.js';
import { useVodBase } from './use-vod.js';

/**
 * vod-item/auth: the play authorization of every file of the VOD, the same tab as a location's,
 * saved as {vods: {prefix: {auth…}}}. No DRM: the server encrypts no VOD output.
 */
export function VodAuthTab() {
  const { base } = useVodBase();
  return <AuthTab base={base} hasName={false} drm={false} />;
}
