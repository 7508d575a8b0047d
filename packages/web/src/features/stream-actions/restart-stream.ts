import { API_BASE, request } from '../../api/http-client.js';

/** POST stream_restart/{stream} (spec 000 §7): the server starts the stream's sources over. */
export async function restartStream(name: string): Promise<void> {
  await request(`${API_BASE}/stream_restart/${encodeURIComponent(name)}`, { method: 'POST' });
}
