import { API_BASE, request, textBody } from '../../api/http-client.js';

/** POST close_sessions: the ids one a line (spec 000 §7). */
export async function closeSessions(ids: readonly string[]): Promise<void> {
  await request(`${API_BASE}/close_sessions`, textBody(ids.join('\n')));
}
