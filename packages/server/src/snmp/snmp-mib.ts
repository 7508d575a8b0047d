import snmp, { type Mib, type ProviderDefinition } from 'net-snmp';

/**
 * Where Sluice's objects live. PLACEHOLDER: the experimental arc (1.3.6.1.3, RFC 1155) with a
 * number of our choosing, until a Private Enterprise Number is registered with IANA; then this one
 * constant moves to 1.3.6.1.4.1.<PEN> (docs/api.md "SNMP" lists every object under it).
 */
export const SLUICE_OID = '1.3.6.1.3.8472';
/** Server scalars: SLUICE_OID.1.<n>.0 */
export const SERVER_OID = `${SLUICE_OID}.1`;
/** Stream table (sluiceStreamTable): its entry SLUICE_OID.2.1, cells SLUICE_OID.2.1.<column>.<index> */
export const STREAM_TABLE_OID = `${SLUICE_OID}.2`;

/** What the agent answers: the stats API's figures (server stats, each stream's stats). */
export interface SnmpFigures {
  uptimeSeconds: number;
  totalStreams: number;
  onlineStreams: number;
  totalClients: number;
  inputKbit: number;
  outputKbit: number;
  /** Whole machine busy, 0..100; and this process with its ffmpegs, 0..100 of all cores. */
  cpuPercent: number;
  serverCpuPercent: number;
  streams: { name: string; alive: boolean; bitrateKbit: number; clients: number }[];
}

type ScalarKey = Exclude<keyof SnmpFigures, 'streams'>;
/** Sub-identifier under SERVER_OID, provider name, figure: the order is the documented OIDs'. */
export const SERVER_SCALARS: [number, string, ScalarKey][] = [
  [1, 'sluiceUptimeSeconds', 'uptimeSeconds'],
  [2, 'sluiceTotalStreams', 'totalStreams'],
  [3, 'sluiceOnlineStreams', 'onlineStreams'],
  [4, 'sluiceTotalClients', 'totalClients'],
  [5, 'sluiceInputKbit', 'inputKbit'],
  [6, 'sluiceOutputKbit', 'outputKbit'],
  [7, 'sluiceCpuPercent', 'cpuPercent'],
  [8, 'sluiceServerCpuPercent', 'serverCpuPercent'],
];
const STREAM_TABLE = 'sluiceStreamTable';
/** A Gauge32 can't hold more; a figure past it (no real one is) is reported as the maximum. */
const GAUGE_MAX = 2 ** 32 - 1;
const gauge = (n: number) => Math.min(GAUGE_MAX, Math.max(0, Math.round(Number.isFinite(n) ? n : 0)));

export function providers(): ProviderDefinition[] {
  const readOnly = snmp.MaxAccess['read-only'];
  return [
    ...SERVER_SCALARS.map(([sub, name]) => ({
      name,
      type: snmp.MibProviderType.Scalar,
      oid: `${SERVER_OID}.${sub}`,
      scalarType: snmp.ObjectType.Gauge,
      maxAccess: readOnly,
    })),
    {
      name: STREAM_TABLE,
      type: snmp.MibProviderType.Table,
      oid: `${STREAM_TABLE_OID}.1`,
      maxAccess: snmp.MaxAccess['not-accessible'],
      tableColumns: [
        { number: 1, name: 'sluiceStreamIndex', type: snmp.ObjectType.Integer, maxAccess: readOnly },
        { number: 2, name: 'sluiceStreamName', type: snmp.ObjectType.OctetString, maxAccess: readOnly },
        // TruthValue (SNMPv2-TC): 1 true, 2 false.
        { number: 3, name: 'sluiceStreamAlive', type: snmp.ObjectType.Integer, maxAccess: readOnly },
        { number: 4, name: 'sluiceStreamBitrateKbit', type: snmp.ObjectType.Gauge, maxAccess: readOnly },
        { number: 5, name: 'sluiceStreamClients', type: snmp.ObjectType.Gauge, maxAccess: readOnly },
      ],
      tableIndex: [{ columnName: 'sluiceStreamIndex' }],
    },
  ];
}

/**
 * Writes the figures into the MIB. Streams are rows 1..n in name order: a row's index changes
 * when a stream before it is added or removed, so a poller matches rows by sluiceStreamName.
 */
export function fillMib(mib: Mib, figures: SnmpFigures, previousRows: number): number {
  for (const [, name, key] of SERVER_SCALARS) mib.setScalarValue(name, gauge(figures[key]));
  for (let index = 1; index <= previousRows; index++) mib.deleteTableRow(STREAM_TABLE, [index]);
  const streams = [...figures.streams].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  streams.forEach((s, i) =>
    mib.addTableRow(STREAM_TABLE, [i + 1, s.name, s.alive ? 1 : 2, gauge(s.bitrateKbit), gauge(s.clients)]),
  );
  return streams.length;
}
