import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { parseRawConfig, RawConfigError } from '../../api/config-calls.js';
import { API_BASE, ApiError, request, textBody } from '../../api/http-client.js';

export const rawConfigKey = ['raw-config'] as const;

/** The config file's text and its revision (the ETag read_raw_config answers). */
export interface RawConfig {
  text: string;
  revision: string | undefined;
}

export async function readRawConfigWithRevision(): Promise<RawConfig> {
  const response = await request(`${API_BASE}/read_raw_config`);
  return { text: await response.text(), revision: response.headers.get('etag') ?? undefined };
}

/**
 * save_raw_config with If-Match: the revision the text was loaded at. If the file was changed
 * since (another console, a script), the server answers 409 instead of silently undoing that
 * change; the message, shown as the save's failure, says to reload. Resolves with the new revision.
 */
async function saveRawConfigAt(text: string, revision: string | undefined): Promise<string | undefined> {
  const body = textBody(text);
  const headers = {
    ...(body.headers as Record<string, string>),
    ...(revision ? { 'if-match': revision } : {}),
  };
  try {
    const response = await request(`${API_BASE}/save_raw_config`, { ...body, headers });
    return response.headers.get('etag') ?? undefined;
  } catch (error) {
    const problem =
      error instanceof ApiError && error.status === 400 ? (error.body as Record<string, unknown>) : {};
    if (typeof problem.error === 'string') {
      const at = (key: string) => (typeof problem[key] === 'number' ? (problem[key] as number) : undefined);
      throw new RawConfigError(problem.error, at('line'), at('column'));
    }
    throw error;
  }
}

/** GET read_raw_config, fetched afresh each time the tab opens. */
export function useRawConfig() {
  return useQuery({ queryKey: rawConfigKey, queryFn: readRawConfigWithRevision, staleTime: 0, gcTime: 0 });
}

export interface RawConfigProblem {
  message: string;
  line?: number;
  column?: number;
}

/**
 * Spec 000 §4 "Raw text config": save first parses (a failure sets the error flag and stops), then
 * saves. Resolves with the parse problem, or undefined when saved; other failures throw.
 */
export function useSaveRawConfig() {
  const queryClient = useQueryClient();
  return useCallback(
    async (text: string): Promise<RawConfigProblem | undefined> => {
      const loaded = queryClient.getQueryData<RawConfig>(rawConfigKey);
      let revision: string | undefined;
      try {
        await parseRawConfig(text);
        revision = await saveRawConfigAt(text, loaded?.revision);
      } catch (error) {
        if (error instanceof RawConfigError)
          return { message: error.message, line: error.line, column: error.column };
        throw error;
      }
      // The next save is made from this text, at the revision it was just saved as.
      queryClient.setQueryData<RawConfig>(rawConfigKey, { text, revision });
      return undefined;
    },
    [queryClient],
  );
}
