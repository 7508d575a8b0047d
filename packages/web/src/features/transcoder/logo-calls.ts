import { type LogoList, logoList } from '@sluice/api';
import { API_BASE, request, requestJson } from '../../api/http-client.js';

const logoPath = (name: string) => `${API_BASE}/logo/${encodeURIComponent(name)}`;

/** GET {api_base}/logo (spec 001 §7): logo names and the streams using each. */
export const fetchLogos = (): Promise<LogoList> => requestJson('/logo', logoList);

/** PUT {api_base}/logo/{name} with the file's raw bytes: uploads or replaces. */
export async function uploadLogo(name: string, file: Blob): Promise<void> {
  await request(logoPath(name), {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: file,
  });
}

export async function deleteLogo(name: string): Promise<void> {
  await request(logoPath(name), { method: 'DELETE' });
}
