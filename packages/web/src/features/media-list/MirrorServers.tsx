import type { MirrorStats } from '@sluice/api';
import { serverHealth, serversOf } from '../mirror/live-mirror.js';
import classes from './mirror-rows.module.css';

/** A health dot per origin server of a mirror, with "online" or "error: <reason>" (spec 000 §8). */
export function MirrorServers({ urls, stats }: { urls: readonly string[]; stats: MirrorStats | undefined }) {
  return (
    <ul className={classes.servers} aria-label="servers">
      {serversOf(urls, stats).map(({ url, server }) => {
        const health = server && serverHealth(server);
        const dot = health ? (health.online ? classes.online : classes.failing) : '';
        return (
          <li key={url} aria-label={url}>
            <span className={`${classes.dot} ${dot}`} aria-hidden="true" />
            {url}
            {health && <span className={health.online ? undefined : classes.failed}> {health.text}</span>}
          </li>
        );
      })}
    </ul>
  );
}
