import { AuthTab } from '../auth/AuthTab.js';
import { useMirrorBase } from './use-mirror.js';

/** mirror-item/auth: the shared Auth tab, saved as {sources: {POS: {auth…}}}; a mirror is no single named media. */
export function MirrorAuthTab() {
  const { base } = useMirrorBase();
  return <AuthTab base={base} hasName={false} />;
}
