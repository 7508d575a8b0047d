import type { FastifyRequest } from 'fastify';
import type { HistoryResponse, HistorySession, HistoryV2Response, ReportRow } from '@sluice/api';
import { HttpError } from '../http/errors.js';
import { HIDDEN } from '../http/redact.js';
import type { TrafficPoint } from '../pulse/traffic-history.js';
import { clientsPerMinute, parseHistoryV2 } from './history-query.js';
import type { SessionLog } from './session-log.js';

export interface HistoryDeps {
  /** The session log; undefined when it could not be opened (logged at start). */
  log: () => SessionLog | undefined;
  /** The stream's per-minute traffic (pulse/traffic-history.ts), oldest first. */
  traffic: (name: string) => TrafficPoint[];
  /** [created_at, now] of the stream's sessions still open (not in the log yet). */
  openSpans: (name: string, nowMs: number) => [number, number][];
}

/**
 * GET /flussonic/api/history (spec 001 §7): the session log, and with vsn=2 the pulse and report.
 * A viewer's token plays the stream: only callers who may read secrets get it (others get HIDDEN).
 */
export function historyHandler(deps: HistoryDeps) {
  return async (
    request: FastifyRequest,
    canReadSecrets: boolean,
  ): Promise<HistoryResponse | HistoryV2Response> => {
    const answer = await historyAnswer(deps, request);
    if (canReadSecrets || !answer.sessions) return answer;
    return { ...answer, sessions: answer.sessions.map(hideToken) as HistorySession[] | ReportRow[] };
  };
}

const hideToken = <T extends object>(row: T): T =>
  'token' in row && row.token !== null ? { ...row, token: HIDDEN } : row;

function historyAnswer(deps: HistoryDeps, request: FastifyRequest): HistoryResponse | HistoryV2Response {
  const query = request.query as Record<string, unknown>;
  const log = deps.log();
  if (!log) throw new HttpError(503, 'the session log is not open (see the server log)');
  if (query.vsn === undefined) {
    const media = query.media;
    if (media !== undefined && typeof media !== 'string') throw new HttpError(400, 'media: give it once');
    return { sessions: log.sessions({ name: media || undefined }) };
  }
  const now = Date.now();
  const parsed = parseHistoryV2(query, now);
  if (typeof parsed === 'string') throw new HttpError(400, parsed);
  const { name, from, to } = parsed;
  const answer: HistoryV2Response = {};
  if (parsed.sessions) {
    const q = { name, prefix: parsed.prefix, from, to, sort: parsed.sort, sortDir: parsed.sortDir };
    answer.sessions = parsed.group === 'type' ? log.report(q) : log.sessions(q);
  }
  if (parsed.pulse) {
    if (!name) throw new HttpError(400, 'name: the pulse is of one stream');
    const traffic = deps.traffic(name).filter((p) => p.minute >= from - 59_999 && p.minute <= to);
    const spans = [...log.spans(name, from, to), ...deps.openSpans(name, now)];
    answer.pulse = [
      { label: 'input', points: traffic.map((p) => [p.minute, p.inKbit]) },
      { label: 'output', points: traffic.map((p) => [p.minute, p.outKbit]) },
      { label: 'clients', points: clientsPerMinute(spans, from, to) },
    ];
  }
  return answer;
}
