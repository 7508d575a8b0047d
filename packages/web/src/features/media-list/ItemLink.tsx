import type { MouseEvent, ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { BASENAME, pathTo, type RouteName } from '../../app/routes.js';
import classes from './media-rows.module.css';

/**
 * A link that selects a media item. The list's filter and query stay in the URL: they are read
 * at the click, so a row does not re-render each time they change.
 */
export function ItemLink({ route, name, children }: { route: RouteName; name: string; children: ReactNode }) {
  const navigate = useNavigate();
  const path = pathTo(route, { mediaName: name });
  const open = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate({ pathname: path, search: window.location.search });
  };
  return (
    <a href={`${BASENAME}${path}`} onClick={open} className={classes.link} draggable={false}>
      {children}
    </a>
  );
}
