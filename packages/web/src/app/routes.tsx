import type { ReactNode } from 'react';
import { createBrowserRouter, generatePath, type RouteObject } from 'react-router';
import { ConfigEditorTab } from '../features/config-editor/ConfigEditorTab.js';
import { GlobalConfigPage } from '../features/global-config/GlobalConfigPage.js';
import { SettingsTab } from '../features/global-config/SettingsTab.js';
import { MediaPage } from '../features/media-list/MediaPage.js';
import { ChassisPage } from '../features/chassis/ChassisPage.js';
import { ClientsTab } from '../features/clients/ClientsTab.js';
import { ClusterPage } from '../features/cluster/ClusterPage.js';
import { IngestTab as ClusterIngestTab } from '../features/cluster/IngestTab.js';
import { OverviewTab as ClusterOverviewTab } from '../features/cluster/OverviewTab.js';
import { PeerPage as ClusterPeerPage } from '../features/cluster/PeerPage.js';
import { SettingsTab as ClusterSettingsTab } from '../features/cluster/SettingsTab.js';
import { SourcesTab as ClusterSourcesTab } from '../features/cluster/SourcesTab.js';
import { LocationAuthTab, StreamAuthTab } from '../features/auth/AuthTab.js';
import { AuthBackendsPage } from '../features/auth-backends/AuthBackendsPage.js';
import { DvrsPage } from '../features/dvrs/DvrsPage.js';
import { IptvPage } from '../features/iptv/IptvPage.js';
import { LogUploadPage } from '../features/logupload/LogUploadPage.js';
import { WatcherPage } from '../features/watcher/WatcherPage.js';
import { HistoryTab } from '../features/history/HistoryTab.js';
import { MirroredDvrTab, PublishedDvrTab } from '../features/dvr/ArchiveDvrTabs.js';
import { LocationDvrTab, MirrorDvrTab, StreamDvrTab } from '../features/dvr/ItemDvrTabs.js';
import { LocationClientsTab } from '../features/location-item/LocationClientsTab.js';
import { LocationInputTab } from '../features/location-item/LocationInputTab.js';
import { LocationOutputTab } from '../features/location-item/LocationOutputTab.js';
import { LocationOverviewTab } from '../features/location-item/LocationOverviewTab.js';
import { LocationPage } from '../features/location-item/LocationPage.js';
import { LocationProcessTab } from '../features/location-item/LocationProcessTab.js';
import { PublishedOutputTab } from '../features/published-item/PublishedOutputTab.js';
import { PublishedOverviewTab } from '../features/published-item/PublishedOverviewTab.js';
import { PublishedPage } from '../features/published-item/PublishedPage.js';
import { InputTab } from '../features/stream-item/input/InputTab.js';
import { SourceOptionsPage } from '../features/stream-item/input/SourceOptionsPage.js';
import { OutputTab } from '../features/stream-item/output/OutputTab.js';
import { OverviewTab } from '../features/stream-item/OverviewTab.js';
import { StreamPage } from '../features/stream-item/StreamPage.js';
import { TranscoderTab } from '../features/transcoder/TranscoderTab.js';
import { MirrorAuthTab } from '../features/mirror/MirrorAuthTab.js';
import { MirrorInputTab } from '../features/mirror/MirrorInputTab.js';
import { MirrorOutputTab } from '../features/mirror/MirrorOutputTab.js';
import { MirrorOverviewTab } from '../features/mirror/MirrorOverviewTab.js';
import { MirrorPage } from '../features/mirror/MirrorPage.js';
import { MirrorProcessTab } from '../features/mirror/MirrorProcessTab.js';
import { MirroredOverviewTab } from '../features/mirrored/MirroredOverviewTab.js';
import { MirroredPage } from '../features/mirrored/MirroredPage.js';
import { PulsePage } from '../features/pulse/PulsePage.js';
import { VodBrowserPage } from '../features/vod-browser/VodBrowserPage.js';
import { FileOutputTab } from '../features/vod-file/FileOutputTab.js';
import { FileOverviewTab } from '../features/vod-file/FileOverviewTab.js';
import { FilePage } from '../features/vod-file/FilePage.js';
import { VodAuthTab } from '../features/vod/VodAuthTab.js';
import { VodInputTab } from '../features/vod/VodInputTab.js';
import { VodOutputTab } from '../features/vod/VodOutputTab.js';
import { VodOverviewTab } from '../features/vod/VodOverviewTab.js';
import { VodPage } from '../features/vod/VodPage.js';
import { AdInjectorPage } from '../features/ads/AdInjectorPage.js';
import { NotFoundPage } from './NotFoundPage.js';
import { Shell } from './Shell.js';

/**
 * The one route table of the console: every route of spec 000 §2, by name. A route whose page a
 * later issue builds has no element yet and shows the not-found page.
 */
interface RouteEntry {
  name: string;
  /** Relative to the parent; '' marks the parent's exact (index) page. */
  path: string;
  /** A page; null: the parent draws it all. Missing on a route without children: not found. */
  element?: ReactNode;
  children?: RouteEntry[];
  /** A frame around its children that adds nothing to their paths. */
  layout?: true;
}

/** An item's sub-pages, named `<item>/<page>`; the overview is the item's exact path. */
const sub = (
  item: string,
  pages: (string | [name: string, path: string])[],
  elements: Record<string, ReactNode> = {},
): RouteEntry[] =>
  [
    { name: 'overview', path: '' },
    ...pages.map((p) => (typeof p === 'string' ? { name: p, path: p } : { name: p[0], path: p[1] })),
  ].map(({ name, path }) => ({ name: `${item}/${name}`, path, element: elements[name] }));

/** The media list and the media items it opens: the list stays beside an open item (spec 000 §2). */
const mediaRoutes: RouteEntry[] = [
  { name: 'root', path: '', element: null },
  {
    name: 'stream-item',
    path: 'standalone/:mediaName',
    element: <StreamPage />,
    children: sub(
      'stream-item',
      [
        'input',
        ['input-source', 'input/:sourceIndex'],
        'transcoder',
        'dvr',
        'output',
        'auth',
        'clients',
        'history',
      ],
      {
        overview: <OverviewTab />,
        input: <InputTab />,
        'input-source': <SourceOptionsPage />,
        output: <OutputTab />,
        transcoder: <TranscoderTab />,
        dvr: <StreamDvrTab />,
        auth: <StreamAuthTab />,
        clients: <ClientsTab />,
        history: <HistoryTab />,
      },
    ),
  },
  {
    name: 'location-item',
    path: 'location/:mediaName',
    element: <LocationPage />,
    children: sub('location-item', ['input', 'process', 'dvr', 'output', 'auth', 'clients', 'history'], {
      overview: <LocationOverviewTab />,
      input: <LocationInputTab />,
      process: <LocationProcessTab />,
      output: <LocationOutputTab />,
      dvr: <LocationDvrTab />,
      auth: <LocationAuthTab />,
      clients: <LocationClientsTab />,
      history: <HistoryTab location />,
    }),
  },
  {
    name: 'published-item',
    path: 'published/:mediaName',
    element: <PublishedPage />,
    children: sub('published-item', ['output', 'dvr', 'clients'], {
      overview: <PublishedOverviewTab />,
      output: <PublishedOutputTab />,
      dvr: <PublishedDvrTab />,
      clients: <ClientsTab />,
    }),
  },
  {
    name: 'vod-item',
    path: 'vod/:mediaName',
    element: <VodPage />,
    children: sub('vod-item', [['tree', 'tree/:number'], 'input', 'output', 'auth'], {
      overview: <VodOverviewTab />,
      tree: <VodBrowserPage />,
      input: <VodInputTab />,
      output: <VodOutputTab />,
      auth: <VodAuthTab />,
    }),
  },
  {
    name: 'file-item',
    path: 'file/:mediaName',
    element: <FilePage />,
    children: sub('file-item', ['output', 'clients'], {
      overview: <FileOverviewTab />,
      output: <FileOutputTab />,
      clients: <ClientsTab />,
    }),
  },
  {
    name: 'mirror-item',
    path: 'mirror/:mediaName',
    element: <MirrorPage />,
    children: sub('mirror-item', ['input', 'process', 'dvr', 'output', 'auth'], {
      overview: <MirrorOverviewTab />,
      input: <MirrorInputTab />,
      process: <MirrorProcessTab />,
      output: <MirrorOutputTab />,
      dvr: <MirrorDvrTab />,
      auth: <MirrorAuthTab />,
    }),
  },
  {
    name: 'mirrored-item',
    path: 'mirrored/:mediaName',
    element: <MirroredPage />,
    children: sub('mirrored-item', ['output', 'dvr', 'clients'], {
      overview: <MirroredOverviewTab />,
      output: <PublishedOutputTab />,
      dvr: <MirroredDvrTab />,
      clients: <ClientsTab />,
    }),
  },
];

export const routeTable: RouteEntry[] = [
  { name: 'media', path: '', layout: true, element: <MediaPage />, children: mediaRoutes },
  { name: 'pulse', path: 'pulse', element: <PulsePage /> },
  { name: 'iptv', path: 'iptv', element: <IptvPage /> },
  { name: 'watcher', path: 'watcher', element: <WatcherPage /> },
  { name: 'logupload', path: 'logupload', element: <LogUploadPage /> },
  { name: 'chassis', path: 'chassis', element: <ChassisPage /> },
  { name: 'ad_injector', path: 'ad_injector', element: <AdInjectorPage /> },
  { name: 'dvrs', path: 'dvrs', element: <DvrsPage /> },
  { name: 'auth', path: 'auth', element: <AuthBackendsPage /> },
  {
    name: 'config',
    path: 'config',
    element: <GlobalConfigPage />,
    children: [
      { name: 'global-config', path: '', element: <SettingsTab /> },
      { name: 'config-editor', path: 'editor', element: <ConfigEditorTab /> },
    ],
  },
  {
    name: 'cluster-section',
    path: 'cluster',
    element: <ClusterPage />,
    children: [
      { name: 'cluster', path: '', element: <ClusterOverviewTab /> },
      { name: 'cluster-settings', path: 'settings', element: <ClusterSettingsTab /> },
      { name: 'cluster-ingest', path: 'ingest', element: <ClusterIngestTab /> },
      { name: 'cluster-sources', path: 'sources', element: <ClusterSourcesTab /> },
      { name: 'cluster-peer', path: 'peer/:name', element: <ClusterPeerPage /> },
    ],
  },
  { name: 'not-found', path: '*' },
];

function toRouteObject(entry: RouteEntry): RouteObject {
  const element = entry.element !== undefined ? entry.element : entry.children ? undefined : <NotFoundPage />;
  if (entry.layout) return { id: entry.name, element, children: entry.children?.map(toRouteObject) };
  if (entry.path === '') return { id: entry.name, index: true, element };
  return { id: entry.name, path: entry.path, element, children: entry.children?.map(toRouteObject) };
}

/** Full paths by route name, for links: pathTo('stream-item', {mediaName}) . */
const fullPaths = new Map<string, string>();
(function collect(entries: RouteEntry[], prefix: string) {
  for (const e of entries) {
    const path = e.path === '' ? prefix || '/' : `${prefix}/${e.path}`;
    fullPaths.set(e.name, path);
    if (e.children) collect(e.children, e.layout ? prefix : path === '/' ? '' : path);
  }
})(routeTable, '');

export type RouteName = string;

/** The path (under the /admin basename) of a named route; parameters are URL-encoded. */
export function pathTo(name: RouteName, params: Record<string, string> = {}): string {
  const path = fullPaths.get(name);
  if (path === undefined) throw new Error(`no route named ${name}`);
  return generatePath(path, params);
}

export const BASENAME = '/admin';

export function createConsoleRouter() {
  return createBrowserRouter([{ id: 'shell', element: <Shell />, children: routeTable.map(toRouteObject) }], {
    basename: BASENAME,
  });
}
