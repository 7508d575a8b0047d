import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import snmp, { type Agent } from 'net-snmp';
import type { Config } from '@sluice/api';
import { fillMib, providers, type SnmpFigures } from './snmp-mib.js';

export interface SnmpAgentOptions {
  /** The figures of this moment: the stats API's (server stats and each stream's stats). */
  figures: () => SnmpFigures;
  log: { notice(message: string): void; error(message: string): void };
  /** Address the UDP port binds to (the server's --host); all addresses when absent. */
  host?: string;
}

/** A request refused (wrong community, not SNMP) is logged at most this often: a scanner can't flood the log. */
const REFUSED_LOG_INTERVAL_MS = 10_000;
/**
 * The MIB is refreshed when a request comes and its figures are older than this: the stats it
 * reads change each second, a walk (a request per object) reuses one refresh, and nothing runs
 * while nobody polls.
 */
const REFRESH_MS = 200;

/**
 * node:dgram for the agent (its documented `dgramModule` option), with each datagram's handling
 * guarded: net-snmp throws from its handler on some malformed requests (an OID not starting with
 * 0, 1 or 2), which would otherwise reach the process's last-resort guard.
 */
function guardedDgram(before: () => void, onThrow: (error: Error, rinfo: RemoteInfo) => void) {
  return {
    createSocket(type: 'udp4' | 'udp6'): Socket {
      const socket = createSocket(type);
      const on = socket.on.bind(socket) as (event: string, listener: (...args: never[]) => void) => Socket;
      socket.on = ((event: string, listener: (message: Buffer, rinfo: RemoteInfo) => void) =>
        on(
          event,
          event !== 'message'
            ? listener
            : (message: Buffer, rinfo: RemoteInfo) => {
                try {
                  before();
                  listener(message, rinfo);
                } catch (error) {
                  onThrow(error instanceof Error ? error : new Error(String(error)), rinfo);
                }
              },
        )) as Socket['on'];
      return socket;
    },
  };
}

/**
 * The `snmp` port (spec 000 §2 Additional): an SNMP v2c agent (net-snmp) answering GET, GETNEXT and
 * GETBULK for the server's counters and a table of streams (OIDs: snmp-mib.ts, docs/api.md). It
 * answers only the config's `snmp_community`; a request naming another community gets no answer,
 * and SNMPv3 (no users are configured) gets noAccess. Read-only: a SET gets notWritable.
 */
export class SnmpAgent {
  private agent: Agent | undefined;
  private running: { port: number; community: string } | undefined;
  private refreshedAtMs = 0;
  private rows = 0;
  private notice: string | undefined;
  private lastRefusedLogMs = 0;
  private refusedSinceLog = 0;

  constructor(private readonly options: SnmpAgentOptions) {}

  /** Starts, moves or stops the agent as the config's snmp and snmp_community say. */
  apply(config: Config): void {
    const port = config.snmp;
    const community = config.snmp_community;
    if (this.running && this.running.port === port && this.running.community === community) return;
    this.stop();
    this.notice = undefined;
    if (port === undefined) return;
    if (!community) {
      this.notice = `snmp ${port} is set but snmp_community is not: the SNMP port stays closed.`;
      this.options.log.error(this.notice);
      return;
    }
    const agent = snmp.createAgent(
      {
        port,
        address: this.options.host ?? null,
        accessControlModelType: snmp.AccessControlModelType.Simple,
        dgramModule: guardedDgram(
          () => this.refresh(),
          (error, rinfo) => this.onError(port, Object.assign(error, { rinfo })),
        ),
      },
      (error) => {
        if (error) this.onError(port, error);
      },
    );
    agent.getAuthorizer().addCommunity(community);
    agent.getMib().registerProviders(providers());
    this.agent = agent;
    this.running = { port, community };
    this.rows = 0;
    this.refreshedAtMs = 0;
    this.options.log.notice(`snmp: answering SNMP v2c on udp ${port}`);
  }

  /** error_snmp for the header: a port that can't be bound, or a community missing. */
  notices(): Record<string, string> {
    return this.notice ? { error_snmp: this.notice } : {};
  }

  close(): void {
    this.stop();
  }

  private refresh(): void {
    const now = Date.now();
    if (!this.agent || now - this.refreshedAtMs < REFRESH_MS) return;
    this.refreshedAtMs = now;
    this.rows = fillMib(this.agent.getMib(), this.options.figures(), this.rows);
  }

  private stop(): void {
    this.agent?.close();
    this.agent = undefined;
    this.running = undefined;
  }

  private onError(port: number, error: Error & { rinfo?: { address: string }; code?: string }): void {
    // A socket error (the port taken, no permission for a port under 1024): no request has an rinfo.
    if (!error.rinfo && error.code) {
      this.notice = `SNMP port ${port} can't be opened: ${error.message}`;
      this.options.log.error(this.notice);
      this.stop();
      return;
    }
    this.refusedSinceLog++;
    const now = Date.now();
    if (now - this.lastRefusedLogMs < REFUSED_LOG_INTERVAL_MS) return;
    this.options.log.notice(
      `snmp: ${this.refusedSinceLog} request(s) ignored, the last from ${error.rinfo?.address ?? '?'}: ${error.message}`,
    );
    this.lastRefusedLogMs = now;
    this.refusedSinceLog = 0;
  }
}
