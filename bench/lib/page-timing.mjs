// Timing helpers for console benches: from an input event in the page to the next frame after the
// page shows the result, and the main-thread time spent meanwhile (CDP Performance metrics).

async function metric(cdp, name) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === name).value * 1000;
}

/** Runs `body` and returns the main thread's busy time (all tasks) and script time meanwhile, in ms. */
export async function mainThreadMs(cdp, body) {
  const [task, script] = [await metric(cdp, 'TaskDuration'), await metric(cdp, 'ScriptDuration')];
  await body();
  return {
    busyMs: (await metric(cdp, 'TaskDuration')) - task,
    scriptMs: (await metric(cdp, 'ScriptDuration')) - script,
  };
}

/** Long tasks since `fromMs` (performance.now() in the page): how many, and the longest. */
export async function longTasksSince(page, fromMs) {
  return page.evaluate((from) => {
    const tasks = globalThis.__longTasks.filter((t) => t.startTime >= from);
    return { count: tasks.length, maxMs: Math.max(0, ...tasks.map((t) => t.duration)) };
  }, fromMs);
}

/**
 * Arms a probe in the page: from the next `startEvent`, the ms until each condition of `ready`
 * first holds, counted to the frame after. Armed by its own call, so the page listens before the
 * input is sent; `timed` awaits it.
 */
async function armProbe(page, startEvent, ready, arg) {
  const sources = Object.fromEntries(Object.entries(ready).map(([k, f]) => [k, f.toString()]));
  await page.evaluate(
    ([event, readySources, value]) => {
      const checks = Object.entries(readySources).map(([k, source]) => [
        k,
        new Function('value', `return (${source})(value);`),
      ]);
      globalThis.__probe = new Promise((resolve) => {
        let start;
        const times = {};
        globalThis.document.addEventListener(event, () => (start = performance.now()), {
          capture: true,
          once: true,
        });
        const check = () => {
          if (start !== undefined)
            for (const [k, holds] of checks) if (!(k in times) && holds(value)) times[k] = undefined;
          globalThis.requestAnimationFrame(() => {
            for (const k of Object.keys(times)) times[k] ??= performance.now() - start;
            if (Object.keys(times).length === checks.length) resolve(times);
            else check();
          });
        };
        check();
      });
    },
    [startEvent, sources, arg],
  );
}

/** Runs `act` with a probe armed; returns the probe's times and the main-thread time meanwhile. */
async function timed(page, cdp, startEvent, ready, arg, act) {
  await armProbe(page, startEvent, ready, arg);
  let times;
  const { busyMs } = await mainThreadMs(cdp, async () => {
    await act();
    times = await page.evaluate(() => globalThis.__probe);
  });
  return { ...times, busyMs };
}

/**
 * Presses `key` in `input`: the ms from the keydown to the frame after the list shows `expected`
 * rows (`list`, the table's aria-rowcount) and after the URL holds the query (`url`).
 */
export async function keyToFrame(page, cdp, input, key, expected) {
  await input.focus();
  const list = (n) =>
    globalThis.document
      .querySelector('[role="table"][aria-label="Streams"]')
      ?.getAttribute('aria-rowcount') === String(n);
  const url = () => globalThis.location.search.includes('query=');
  return timed(page, cdp, 'keydown', { list, url }, expected, () => page.keyboard.press(key));
}

/** Clicks the sort button of column `label`: the ms from the press to the frame after it sorts ascending. */
export async function clickToFrame(page, cdp, label) {
  const header = page
    .getByRole('table', { name: 'Streams' })
    .getByRole('columnheader', { name: new RegExp(`^${label}`) });
  const ms = (name) =>
    [...globalThis.document.querySelectorAll('[role="columnheader"]')].some(
      (h) => h.textContent.startsWith(name) && h.getAttribute('aria-sort') === 'ascending',
    );
  return timed(page, cdp, 'pointerdown', { ms }, label, () => header.getByRole('button').click());
}
