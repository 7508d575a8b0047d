import { useServerInfo } from '../../api/server-info.js';

/** Whether publish:// sources count as publishing on this server (spec 000 §4 Publishing). */
export const useUrlPublish = (): boolean => useServerInfo().data?.capabilities.url_publish ?? false;
