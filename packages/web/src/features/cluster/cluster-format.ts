import type { ClusterServer, ClusterSource } from '@sluice/api';

/** Spec 002 §2 Overview: '*' before a persistent server's name, '-' before any other. */
export const persistentMark = (server: ClusterServer) => (server.persistent ? '*' : '-');

/** The port the Host column shows: http, or https when the server has no plain one. */
export const hostPort = (server: ClusterServer): number | undefined =>
  server.ports?.http ?? server.ports?.https;

/** Host as text: "* name:port". */
export function hostText(server: ClusterServer): string {
  const port = hostPort(server);
  return `${persistentMark(server)} ${server.name}${port === undefined ? '' : `:${port}`}`;
}

/** Spec 002 §2: Load is the bandwidth usage percent, or '-' when the server has none. */
export function loadText(bandwidthUsage: number | null | undefined): string {
  return typeof bandwidthUsage === 'number' ? `${Math.round(bandwidthUsage)}%` : '-';
}

/** A percent figure (CPU, memory); empty while the server has not answered one. */
export const percentText = (value: number | undefined) =>
  value === undefined ? '' : `${Math.round(value)}%`;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Last update: the clock time the figures were fetched from the server, `fetchDelayMs` before the
 * answer that carried them came (`answeredAtMs`); empty when it was never reached.
 */
export function lastUpdateText(fetchDelayMs: number | null | undefined, answeredAtMs: number): string {
  if (typeof fetchDelayMs !== 'number') return '';
  const at = new Date(answeredAtMs - fetchDelayMs);
  return `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

/** A source's {address}: proto://name:port/prefix. */
export function sourceAddress(source: ClusterSource): string {
  const port = source.port === undefined ? '' : `:${source.port}`;
  const path = (source.prefix ?? '').replace(/^\/+/, '');
  const prefix = path === '' ? '' : `/${path}`;
  return `${source.proto}://${source.name}${port}${prefix}`;
}

/** Spec 002 §2 Sources: 'all ondemand' when `only` is empty, else 'take only: (...)'; then 'except: (...)'. */
export function sourceFilters(source: ClusterSource): string[] {
  const only = source.only ?? [];
  const except = source.except ?? [];
  return [
    only.length === 0 ? 'all ondemand' : `take only: (${only.join(', ')})`,
    ...(except.length === 0 ? [] : [`except: (${except.join(', ')})`]),
  ];
}

/** The servers as rows: this server first, then peers and sources by name. */
export function serverRows(servers: Record<string, ClusterServer>): ClusterServer[] {
  const rank = (s: ClusterServer) => (s.is_peer ? 1 : s.is_source ? 2 : 0);
  return Object.entries(servers)
    .map(([name, server]) => ({ ...server, name: server.name || name }))
    .sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** The names of the servers of the cluster itself (this one and its peers), the Ingest columns. */
export const capturingServers = (servers: Record<string, ClusterServer>): string[] =>
  serverRows(servers)
    .filter((server) => server.is_peer || !server.is_source)
    .map((server) => server.name);
