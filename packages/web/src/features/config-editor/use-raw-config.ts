import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { parseRawConfig, RawConfigError, readRawConfig, saveRawConfig } from '../../api/config-calls.js';

export const rawConfigKey = ['raw-config'] as const;

/** GET read_raw_config, fetched afresh each time the tab opens. */
export function useRawConfig() {
  return useQuery({ queryKey: rawConfigKey, queryFn: readRawConfig, staleTime: 0, gcTime: 0 });
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
      try {
        await parseRawConfig(text);
        await saveRawConfig(text);
      } catch (error) {
        if (error instanceof RawConfigError)
          return { message: error.message, line: error.line, column: error.column };
        throw error;
      }
      queryClient.setQueryData(rawConfigKey, text);
      return undefined;
    },
    [queryClient],
  );
}
