import { clusterIngestAnswer, clusterServers, clusterSourcesAnswer, peerStreamsAnswer } from '@sluice/api';
import { useQuery } from '@tanstack/react-query';
import { requestJson } from '../../api/http-client.js';

/** Spec 002 §9: the ingest page re-polls every 3000 ms (its first call at once). */
export const INGEST_POLL_MS = 3000;

const CALL = '/cluster_servers';

/**
 * GET cluster_servers and its forms (spec 002 §7). The lists reload on demand (§4): each is asked
 * when its page opens and on Reload, never kept from an earlier visit.
 */
const onDemand = { staleTime: 0, refetchOnMount: 'always' } as const;

export const useClusterServers = () =>
  useQuery({
    queryKey: ['cluster', 'servers'],
    queryFn: () => requestJson(CALL, clusterServers),
    ...onDemand,
  });

export const useClusterIngest = () =>
  useQuery({
    queryKey: ['cluster', 'ingest'],
    queryFn: () => requestJson(`${CALL}?ingest=true`, clusterIngestAnswer),
    ...onDemand,
    refetchInterval: INGEST_POLL_MS,
  });

export const useClusterSources = () =>
  useQuery({
    queryKey: ['cluster', 'sources'],
    queryFn: () => requestJson(`${CALL}?sources=true`, clusterSourcesAnswer),
    ...onDemand,
  });

export const usePeerStreams = (name: string) =>
  useQuery({
    queryKey: ['cluster', 'server', name],
    queryFn: () => requestJson(`${CALL}?server=${encodeURIComponent(name)}`, peerStreamsAnswer),
    ...onDemand,
  });
