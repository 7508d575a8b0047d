import {
  configJsonSchema,
  declaredKeys,
  type Hint,
  itemHint,
  propertyHint,
  recordValueHint,
} from '../schema-hints.js';
import type { Unit } from '../units.js';
import { adFileHandler, adScheduleSection, slotHandler } from './ad-schedule.js';
import { ruleHandler } from './auth-backend.js';
import { credentialsHandler } from './credentials.js';
import { diskHandler, scheduleHandler } from './dvr-storage.js';
import { entryList } from './entries.js';
import { TOP_LEVEL_ONLY } from './generic.js';
import { itemDvr } from './item-dvr.js';
import { LISTEN_LISTS, listenHandler } from './listen.js';
import { peerSection, webScriptSection } from './flat-sections.js';
import { namedSection, pluginSection, sourceSection } from './sections.js';
import type { BlockSpec, Handler } from './spec.js';

interface SpecInit {
  label: string;
  schema: Hint;
  handlers?: Handler[];
  units?: Record<string, Unit>;
  omit?: Record<string, string>;
  last?: string[];
  sections?: Set<string>;
  children?: Record<string, () => BlockSpec>;
  top?: boolean;
}

/** Above every declared key and every unknown one (see orderedKeys). */
const LAST_RANK = 1 << 30;

export function makeSpec(init: SpecInit): BlockSpec {
  const handlers = init.handlers ?? [];
  const reserved = new Set(handlers.map((h) => h.directive));
  if (!init.top) for (const name of TOP_LEVEL_ONLY) reserved.add(name);
  const nestedSpecs = new Map<string, BlockSpec>();
  const byDirective = new Map<string, Handler>();
  const byKey = new Map<string, Handler>();
  // The first handler of a name or key wins, as in the order the handlers are listed.
  for (const h of handlers) {
    if (!byDirective.has(h.directive)) byDirective.set(h.directive, h);
    for (const key of h.keys) if (!byKey.has(key)) byKey.set(key, h);
  }
  const last = init.last ?? [];
  const rank = new Map<string, number>();
  declaredKeys(init.schema).forEach((key, i) => rank.set(key, i));
  last.forEach((key, i) => rank.set(key, LAST_RANK + i));
  return {
    label: init.label,
    schema: init.schema,
    handlers,
    units: init.units ?? {},
    omit: init.omit ?? {},
    last,
    reserved,
    sections: init.sections ?? new Set(),
    byDirective,
    byKey,
    rank,
    nested(key) {
      let spec = nestedSpecs.get(key);
      if (!spec) {
        const special = init.children && Object.hasOwn(init.children, key) ? init.children[key] : undefined;
        spec = special ? special() : makeSpec({ label: key, schema: propertyHint(init.schema, key) });
        nestedSpecs.set(key, spec);
      }
      return spec;
    },
  };
}

function memo<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const DVR_UNITS: Record<string, Unit> = { dvr_limit: 'duration', disk_space: 'size', disk_limit: 'percent' };
const CACHE_UNITS: Record<string, Unit> = { disk_limit: 'size', time_limit: 'duration' };
const ITEM_UNITS: Record<string, Unit> = {
  source_timeout: 'duration',
  clients_timeout: 'duration',
  prepush: 'duration',
};

/** Keys a section item never writes in its block: the header and the order of the file carry them. */
function itemOmit(keyField?: string): Record<string, string> {
  const omit: Record<string, string> = {
    position: 'the position is the order of the items in the file',
    stats: 'stats are measured, not configured',
  };
  if (keyField) omit[keyField] = `the ${keyField} is written after the directive name`;
  return omit;
}

/** The block of a stream (`stream NAME`) or a publishing location (`live PREFIX`). */
function mediaBody(label: string, schema: Hint, keyField: string): () => BlockSpec {
  return memo(() => {
    const url = memo(() =>
      makeSpec({
        label: 'url',
        schema: itemHint(propertyHint(schema, 'urls')),
        units: { source_timeout: 'duration' },
      }),
    );
    const push = memo(() => makeSpec({ label: 'push', schema: itemHint(propertyHint(schema, 'pushes')) }));
    const dvr = memo(() => makeSpec({ label: 'dvr', schema: propertyHint(schema, 'dvr'), units: DVR_UNITS }));
    const cache = () =>
      makeSpec({ label: 'cache', schema: propertyHint(schema, 'cache'), units: CACHE_UNITS });
    return makeSpec({
      label,
      schema,
      handlers: [entryList('url', 'urls', url), entryList('push', 'pushes', push), itemDvr(dvr)],
      units: ITEM_UNITS,
      omit: itemOmit(keyField),
      children: { cache },
    });
  });
}

function buildTop(): BlockSpec {
  const root = configJsonSchema();
  const item = (section: string) => recordValueHint(propertyHint(root, section));
  const plain = (label: string, schema: Hint, keyField?: string) =>
    memo(() => makeSpec({ label, schema, omit: itemOmit(keyField) }));

  const source = memo(() => {
    const schema = item('sources');
    const dvr = memo(() => makeSpec({ label: 'dvr', schema: propertyHint(schema, 'dvr'), units: DVR_UNITS }));
    return makeSpec({ label: 'source', schema, handlers: [itemDvr(dvr)], omit: itemOmit() });
  });
  const vod = memo(() => {
    const schema = item('vods');
    const path = memo(() => makeSpec({ label: 'path', schema: itemHint(propertyHint(schema, 'urls')) }));
    return makeSpec({
      label: 'file',
      schema,
      handlers: [entryList('path', 'urls', path)],
      omit: itemOmit('prefix'),
    });
  });
  const dvrStorage = memo(() => {
    const schema = item('dvrs');
    const disk = memo(() =>
      makeSpec({
        label: 'disk',
        schema: recordValueHint(propertyHint(schema, 'disks')),
        omit: { position: 'the position is the order of the disks' },
      }),
    );
    return makeSpec({
      label: 'dvr',
      schema,
      handlers: [diskHandler(disk), scheduleHandler],
      units: DVR_UNITS,
      omit: itemOmit('name'),
    });
  });
  const authBackend = memo(() => {
    const schema = item('auth_backends');
    const lists = (field: string) =>
      memo(() => makeSpec({ label: field, schema: propertyHint(schema, field) }));
    const backend = memo(() =>
      makeSpec({ label: 'backend', schema: itemHint(propertyHint(schema, 'backends')) }),
    );
    return makeSpec({
      label: 'auth_backend',
      schema,
      handlers: [
        ruleHandler('allow', lists('allow')),
        ruleHandler('deny', lists('deny')),
        entryList('backend', 'backends', backend),
      ],
      omit: itemOmit('name'),
    });
  });
  const plugin = (name: string) =>
    makeSpec({ label: `plugin ${name}`, schema: propertyHint(propertyHint(root, 'plugins'), name) });
  const credentials = (key: string) => memo(() => makeSpec({ label: key, schema: propertyHint(root, key) }));
  const adSchedule = memo(() =>
    makeSpec({
      label: 'ad_schedule',
      schema: itemHint(propertyHint(root, 'ad_schedules')),
      handlers: [slotHandler, adFileHandler],
      omit: { name: "the name is written after 'ad_schedule'" },
    }),
  );

  const handlers: Handler[] = [
    credentialsHandler('edit_auth', credentials('edit_auth')),
    credentialsHandler('view_auth', credentials('view_auth')),
    namedSection('stream', 'streams', 'name', 'a stream name', mediaBody('stream', item('streams'), 'name')),
    namedSection('live', 'lives', 'prefix', 'a location prefix', mediaBody('live', item('lives'), 'prefix')),
    sourceSection(source),
    namedSection('file', 'vods', 'prefix', 'a VOD prefix', vod),
    namedSection('dvr', 'dvrs', 'name', 'a DVR name', dvrStorage),
    namedSection('auth_backend', 'auth_backends', 'name', 'an auth backend name', authBackend),
    pluginSection(plugin),
    peerSection(plain('peer', item('peers'), 'name')),
    webScriptSection(plain('web_script', item('web_scripts'), 'prefix')),
    adScheduleSection(adSchedule),
    ...LISTEN_LISTS.map(listenHandler),
  ];
  return makeSpec({
    label: 'config',
    schema: root,
    handlers,
    units: { total_bandwidth: 'size' },
    omit: { stats: 'stats are measured, not configured' },
    // Globals first, then sections: shared definitions before the streams that use them.
    last: [
      'plugins',
      'peers',
      'web_scripts',
      'ad_schedules',
      'dvrs',
      'auth_backends',
      'lives',
      'sources',
      'vods',
      'streams',
    ],
    sections: new Set([
      'stream',
      'live',
      'source',
      'file',
      'dvr',
      'auth_backend',
      'plugin',
      'peer',
      'web_script',
      'ad_schedule',
    ]),
    top: true,
  });
}

/** The spec of the whole file, built once from the api schema. */
export const topSpec: () => BlockSpec = memo(buildTop);
