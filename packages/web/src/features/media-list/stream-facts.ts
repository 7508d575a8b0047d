import {
  hasDvr,
  hasTranscoder,
  matchesLocalFilter,
  queryHaystack,
  type StatusFilter,
  statusFilterOf,
  streamStatus,
  sortValue,
  type StreamWithStats,
} from '@sluice/api';

export type NamedStream = StreamWithStats & { name?: string };

/** What the stream list filters and sorts a stream by, worked out once per change of the stream. */
export interface StreamFacts {
  readonly item: NamedStream;
  readonly status: StatusFilter | undefined;
  readonly dvr: boolean;
  readonly transcoder: boolean;
  readonly published: boolean;
  readonly noSources: boolean;
  readonly haystack: string;
  readonly position: number;
  readonly clients: number;
  readonly bitrate: number;
  readonly runtime: number;
}

/** The facts of `item`; `previous` lends its search text when name, title and urls are unchanged. */
export function streamFacts(
  name: string,
  item: NamedStream,
  urlPublish: boolean,
  previous: StreamFacts | undefined,
): StreamFacts {
  const named = item.name === name ? item : { ...item, name };
  const old = previous?.item;
  const sameText = old !== undefined && old.urls === item.urls && old.title === item.title;
  const haystack = sameText && previous ? previous.haystack : queryHaystack(named);
  return {
    item,
    status: statusFilterOf(streamStatus(named, urlPublish).kind),
    dvr: hasDvr(item),
    transcoder: hasTranscoder(item),
    published: matchesLocalFilter(item, 'published', urlPublish),
    noSources: matchesLocalFilter(item, 'no_sources', urlPublish),
    haystack,
    position: sortValue(item, 'position') as number,
    clients: sortValue(item, 'clients') as number,
    bitrate: sortValue(item, 'bitrate') as number,
    runtime: sortValue(item, 'runtime') as number,
  };
}

/** Which parts of the list a change of facts can move. */
export interface FactsChange {
  structure: boolean;
  status: boolean;
  clients: boolean;
  bitrate: boolean;
  runtime: boolean;
}

export function factsChange(a: StreamFacts, b: StreamFacts): FactsChange {
  return {
    structure: a.position !== b.position || a.haystack !== b.haystack,
    status:
      a.status !== b.status ||
      a.dvr !== b.dvr ||
      a.transcoder !== b.transcoder ||
      a.published !== b.published ||
      a.noSources !== b.noSources,
    clients: a.clients !== b.clients,
    bitrate: a.bitrate !== b.bitrate,
    runtime: a.runtime !== b.runtime,
  };
}
