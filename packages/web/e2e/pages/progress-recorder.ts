import type { Page } from '@playwright/test';

declare global {
  interface Window {
    __progressSeen?: Record<string, number[]>;
  }
}

/**
 * Records, inside the page, every value each labelled progress bar shows (aria-valuenow), so a test
 * can tell that intermediate values were drawn however fast the bar filled.
 */
export async function recordProgress(page: Page): Promise<() => Promise<Record<string, number[]>>> {
  await page.evaluate(() => {
    window.__progressSeen = {};
    const note = (el: Element) => {
      const name = el.getAttribute('aria-label');
      const value = Number(el.getAttribute('aria-valuenow'));
      if (!name || !Number.isFinite(value)) return;
      const seen = (window.__progressSeen![name] ??= []);
      if (seen.at(-1) !== value) seen.push(value);
    };
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.target instanceof Element && record.target.getAttribute('role') === 'progressbar')
          note(record.target);
        for (const added of record.addedNodes)
          if (added instanceof Element) added.querySelectorAll('[role=progressbar]').forEach(note);
      }
    }).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
  });
  return () => page.evaluate(() => window.__progressSeen ?? {});
}
