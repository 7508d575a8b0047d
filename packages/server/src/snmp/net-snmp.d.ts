/** The part of net-snmp (a CommonJS module without types) the SNMP agent uses. */
declare module 'net-snmp' {
  export const ObjectType: Record<'Integer' | 'OctetString' | 'Gauge' | 'TimeTicks' | 'Counter64', number>;
  export const MibProviderType: Record<'Scalar' | 'Table', number>;
  export const MaxAccess: Record<'not-accessible' | 'read-only', number>;
  export const AccessControlModelType: Record<'None' | 'Simple', number>;
  export const AccessLevel: Record<'None' | 'ReadOnly' | 'ReadWrite', number>;

  export interface ColumnDefinition {
    number: number;
    name: string;
    type: number;
    maxAccess: number;
  }
  export interface ProviderDefinition {
    name: string;
    type: number;
    oid: string;
    maxAccess: number;
    scalarType?: number;
    tableColumns?: ColumnDefinition[];
    tableIndex?: { columnName: string }[];
  }
  export interface Mib {
    registerProviders(providers: ProviderDefinition[]): void;
    setScalarValue(name: string, value: number | string): void;
    addTableRow(name: string, row: (number | string)[]): void;
    deleteTableRow(name: string, index: number[]): void;
    getTableCells(name: string, byRow?: boolean, includeInstances?: boolean): unknown[][] | undefined;
  }
  export interface Authorizer {
    addCommunity(community: string): void;
  }
  export interface Agent {
    getMib(): Mib;
    getAuthorizer(): Authorizer;
    close(callback?: () => void): void;
  }
  export interface AgentOptions {
    port: number;
    address?: string | null;
    transport?: 'udp4' | 'udp6';
    disableAuthorization?: boolean;
    accessControlModelType?: number;
    /** Documented: a module shaped like node:dgram the agent makes its socket with. */
    dgramModule?: { createSocket(type: 'udp4' | 'udp6'): import('node:dgram').Socket };
  }
  export function createAgent(
    options: AgentOptions,
    callback: (error: (Error & { rinfo?: { address: string } }) | null, data?: unknown) => void,
  ): Agent;
  const snmp: {
    createAgent: typeof createAgent;
    ObjectType: typeof ObjectType;
    MibProviderType: typeof MibProviderType;
    MaxAccess: typeof MaxAccess;
    AccessControlModelType: typeof AccessControlModelType;
    AccessLevel: typeof AccessLevel;
  };
  export default snmp;
}
