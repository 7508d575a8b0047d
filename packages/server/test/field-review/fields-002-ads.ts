import { applied, type Review } from './review.js';

const CUES =
  'marks the slot with DISCONTINUITY and a DATERANGE cue out and in, in a playlist a strict parser takes';

/** Spec 002: ad schedules (issue 25) and the stream's opt-in. */
export const AD_FIELDS: Record<string, Review> = {
  'streams.*.ad_schedule': applied('ad-insertion.test.ts', CUES),
  'ad_schedules[].name': applied('ad-insertion.test.ts', CUES),
  'ad_schedules[].slots[].from': applied(
    'ad-insertion.test.ts',
    'switches at the first keyframe after the slot start: at most one GOP late',
  ),
  'ad_schedules[].slots[].duration': applied('ad-insertion.test.ts', CUES),
  'ad_schedules[].files[].name': applied(
    'ad-insertion.test.ts',
    'plays the ad conformed to the live size, and ffmpeg decodes live → ad → live without an error',
  ),
  'ad_schedules[].files[].weight': applied(
    'src/ads/schedule-weight.test.ts',
    'draws a file of weight 2 twice as often as one of weight 1',
  ),
};
