import { useEffect, useState } from 'react';

/**
 * Whether `element` can be seen: some of it inside the viewport (IntersectionObserver) and the
 * page itself shown (document.visibilityState: not a background tab, not a minimised window).
 * False until the first observation, so nothing starts for an element that is out of view.
 */
export function useShownOnScreen(element: Element | null): boolean {
  const [inView, setInView] = useState(false);
  const [pageShown, setPageShown] = useState(() => document.visibilityState === 'visible');
  useEffect(() => {
    const onVisibility = () => setPageShown(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);
  useEffect(() => {
    if (!element) return;
    const observer = new IntersectionObserver((entries) => {
      const last = entries[entries.length - 1];
      if (last) setInView(last.isIntersecting);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      setInView(false);
    };
  }, [element]);
  return inView && pageShown;
}
