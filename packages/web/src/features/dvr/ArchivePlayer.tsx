import { HlsVideo } from '../../components/HlsVideo.js';
import { useAdminToken, withAdminToken } from '../auth/admin-token.js';

/** Plays an archive playlist with the admin token the live player uses (spec 001 §6). */
export function ArchivePlayer({ src }: { src: string }) {
  const token = useAdminToken();
  return (
    <div>
      <HlsVideo src={withAdminToken(src, token)} label="archive player" />
    </div>
  );
}
