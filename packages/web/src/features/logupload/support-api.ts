import { z } from 'zod';
import { API_BASE, ApiError, jsonBody, request } from '../../api/http-client.js';

/** Spec 002 §9: the debug upload's progress window and tick; the comment must be longer than 3 characters. */
export const UPLOAD_WINDOW_MS = 30_000;
export const UPLOAD_TICK_MS = 1000;
export const COMMENT_MIN_CHARS = 4;

/** Spec 002 §4 and §8, word for word. */
export const SUBMITTED = 'Submited';
export const SERVER_ERROR = 'Server error';
export const NOT_RESPONDING = 'Server not responding...';
export const DESCRIPTION_REQUIRED = 'Description required (more than 3 characters)';

const sendAnswer = z.looseObject({
  ticket: z.union([z.string(), z.number()]).nullish(),
  download: z.string().nullish(),
});

export type SendResult =
  | { kind: 'ticket'; ticket: string }
  /** No support_url: the bundle is made and downloaded here. */
  | { kind: 'download'; download: string }
  /** The upload failed; the bundle is kept at `download` when the server made one. */
  | { kind: 'failed'; download?: string };

/** POST sendlogs {comment} (spec 002 §7); docs/api.md "Log upload". */
export async function sendLogs(comment: string): Promise<SendResult> {
  try {
    const answer = sendAnswer.parse(
      await (await request(`${API_BASE}/sendlogs`, jsonBody({ comment }))).json(),
    );
    if (answer.ticket !== null && answer.ticket !== undefined)
      return { kind: 'ticket', ticket: String(answer.ticket) };
    return answer.download ? { kind: 'download', download: answer.download } : { kind: 'failed' };
  } catch (error) {
    const body = error instanceof ApiError ? sendAnswer.safeParse(error.body) : undefined;
    return { kind: 'failed', download: body?.success ? (body.data.download ?? undefined) : undefined };
  }
}

/** The support tunnel as the server reports it (diagnostics/ssh-tunnel.ts). */
export const tunnelStatus = z.looseObject({
  state: z.enum(['unconfigured', 'stopped', 'starting', 'running', 'failed']),
  host: z.string().nullish(),
  remote_port: z.number().nullish(),
  remote_console_port: z.number().nullish(),
  public_key: z.string().nullish(),
  reason: z.string().nullish(),
});
export type TunnelStatus = z.infer<typeof tunnelStatus>;

export async function fetchTunnel(): Promise<TunnelStatus> {
  return tunnelStatus.parse(await (await request(`${API_BASE}/ssh_agent_enabled`)).json());
}

export async function switchTunnel(enable: boolean): Promise<TunnelStatus> {
  const call = enable ? 'enable_ssh_agent' : 'disable_ssh_agent';
  return tunnelStatus.parse(await (await request(`${API_BASE}/${call}`, { method: 'POST' })).json());
}

/**
 * Downloads the kept bundle: fetched with the console's header (the server refuses an edit call
 * authorised by the cookie alone, so a plain link would not do), then saved under the server's name.
 */
export async function downloadBundle(path: string): Promise<void> {
  const response = await request(path);
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'sluice-diagnostics.tar.gz';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
