import { type AuthType, authTypeOf, iptvAuthUrl, SECURETOKEN_PREFIX, VSAAS_AUTH_URL } from '@sluice/api';

/** The choices of the authentication type select; IPTV and Watcher only for a media with a name (spec 001 §4). */
export function authTypeOptions(hasName: boolean): { value: AuthType; label: string }[] {
  return [
    { value: 'none', label: 'none' },
    { value: 'custom', label: 'custom' },
    { value: 'stalker', label: 'stalker' },
    { value: 'securetoken', label: 'securetoken' },
    ...(hasName
      ? [
          { value: 'iptv' as const, label: 'IPTV' },
          { value: 'vsaas' as const, label: 'Watcher' },
        ]
      : []),
  ];
}

/** The auth fields a choice of type writes; null deletes. Other fields stay as they are. */
export interface AuthTypeEdit {
  url: string | null;
  extra?: null;
}

/**
 * Spec 001 §4 "Auth type": none and custom clear url and extra; stalker waits for its portal host;
 * securetoken sets the url prefix; IPTV sets the server's own local auth url, Watcher vsaas://.
 */
export function authTypeChange(type: AuthType, httpPort: number): AuthTypeEdit {
  switch (type) {
    case 'none':
    case 'custom':
      return { url: null, extra: null };
    case 'stalker':
      return { url: null };
    case 'securetoken':
      return { url: SECURETOKEN_PREFIX };
    case 'iptv':
      return { url: iptvAuthUrl(httpPort) };
    case 'vsaas':
      return { url: VSAAS_AUTH_URL };
  }
}

/**
 * The type the select shows: the one the url says, or the operator's choice while the url does not
 * say it yet (custom and stalker before their url is typed).
 */
export function shownAuthType(url: string | null | undefined, chosen: AuthType | undefined): AuthType {
  const stored = authTypeOf(url);
  return chosen !== undefined && (stored === 'none' || stored === chosen) ? chosen : stored;
}

/** The port the server's own auth endpoints answer on: the first HTTP port of the config. */
export const localHttpPort = (http: readonly number[] | undefined): number => http?.[0] ?? 80;
