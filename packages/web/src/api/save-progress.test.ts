import { expect, it } from 'vitest';
import { SAVING_TEXT, SLOW_TEXT, savingView } from './save-progress.js';

it('fills the bar one tick a second and warns after 10 s', () => {
  expect(savingView(0)).toEqual({ text: SAVING_TEXT, percent: 10 });
  expect(savingView(4500)).toEqual({ text: SAVING_TEXT, percent: 50 });
  expect(savingView(9999).text).toBe(SAVING_TEXT);
  expect(savingView(10_000)).toEqual({ text: SLOW_TEXT, percent: 100 });
  expect(savingView(60_000).percent).toBe(100);
});
