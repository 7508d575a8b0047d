import { type ImportSummary, importSummary } from '@sluice/api';
import { z } from 'zod';
import { RESET_MARKER } from '../../api/config-calls.js';
import { jsonBody, requestJson } from '../../api/http-client.js';

/**
 * POST {api_base}/preview_config_import: what uploading this config would add, remove and change,
 * checked as the import would be (a refused file answers 400 with the reason); nothing is saved.
 */
export async function previewImport(config: Record<string, unknown>): Promise<ImportSummary> {
  const answer = await requestJson(
    '/preview_config_import',
    z.object({ summary: importSummary }),
    jsonBody({ ...config, [RESET_MARKER]: true }),
  );
  return answer.summary;
}
