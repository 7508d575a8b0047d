import { type Config, dvrRootClash, itemDvrRoots } from '@sluice/api';
import { ConfigRejected } from './errors.js';

/**
 * Spec 002 §5: a global DVR's root may be neither another global DVR's root nor the root of an
 * item's own dvr (leading slash ignored): two storages in one folder would delete each other's
 * archive under their limits. Checked when a change touches `dvrs`, so an edit of streams alone
 * costs nothing here; a file written by hand is loaded as it is.
 */
export function refuseDvrRootClash(config: Config): void {
  if (!config.dvrs) return;
  const clash = dvrRootClash(config.dvrs, itemDvrRoots(config));
  if (clash) throw new ConfigRejected(`dvrs.${clash.name}.root: ${clash.message} Nothing was changed.`);
}
