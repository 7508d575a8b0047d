import { type ServerInfo, serverInfo } from '@sluice/api';
import { useQuery } from '@tanstack/react-query';
import { requestJson } from './http-client.js';

export const serverInfoKey = ['server-info'] as const;

export const fetchServerInfo = (): Promise<ServerInfo> => requestJson('/server', serverInfo);

/** GET {api_base}/server (spec 000 §7): loaded at startup to learn whether the credentials work. */
export function useServerInfo(enabled = true) {
  return useQuery({
    queryKey: serverInfoKey,
    queryFn: fetchServerInfo,
    retry: false,
    staleTime: Infinity,
    enabled,
  });
}
