import type { Config } from '@sluice/api';
import { ConfigRejected } from './errors.js';

/**
 * A config that would end remote management is refused on every write path (modify_config, an
 * import, save_raw_config, a SIGHUP reload): no edit_auth means nobody can log in again, no `http`
 * port closes the console and this API. Only the file, edited by hand, could undo such a change.
 * Two field reads: it runs on every edit, which must stay cheap with 20,000 streams.
 * (Loading at start is not refused: the server then warns with error_no_edit_auth in its stats.)
 */
export function refuseLockout(config: Config): void {
  if (!config.edit_auth)
    throw new ConfigRejected(
      'edit_auth is required: without it nobody could log in to change the config again; nothing was changed',
    );
  if (!config.http || config.http.length === 0)
    throw new ConfigRejected(
      'at least one http port is required: without one the console and this API could not be reached; nothing was changed',
    );
  // Spec 000 §6: separate edit and view credentials. With one login for both, the password alone
  // would decide who may change things, and a typo in it would silently log the admin in read-only.
  if (config.view_auth && config.view_auth.login === config.edit_auth.login)
    throw new ConfigRejected(
      `view_auth must have a login of its own: "${config.view_auth.login}" is already the edit_auth login; nothing was changed`,
    );
}

/** An empty raw config would remove every setting at once. */
export function refuseEmptyText(text: string): void {
  if (text.trim() === '')
    throw new ConfigRejected(
      'the config text is empty: saving it would remove every setting, edit_auth and the http ports included; nothing was changed',
    );
}
