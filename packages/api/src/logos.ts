import { z } from 'zod';

/** GET /flussonic/api/logo (spec 001 §7): each uploaded logo's name → the streams whose transcoder shows it. */
export const logoList = z.record(z.string(), z.looseObject({ streams: z.array(z.string()) }));
export type LogoList = z.infer<typeof logoList>;

/** A logo's distance from the corner it is pinned to, in pixels (spec 001 §4 Logo position). */
export const LOGO_MARGIN_PX = 10;

export type LogoCorner = 'top_left' | 'top_right' | 'bottom_left' | 'bottom_right';

/**
 * The fixed x/y expressions of each corner, as a video track's logo {x, y}: ffmpeg overlay
 * expressions (main_w/main_h: the picture, overlay_w/overlay_h: the logo), margin 10.
 */
export const LOGO_CORNERS: Record<LogoCorner, { x: string; y: string }> = {
  top_left: { x: `${LOGO_MARGIN_PX}`, y: `${LOGO_MARGIN_PX}` },
  top_right: { x: `main_w-overlay_w-${LOGO_MARGIN_PX}`, y: `${LOGO_MARGIN_PX}` },
  bottom_left: { x: `${LOGO_MARGIN_PX}`, y: `main_h-overlay_h-${LOGO_MARGIN_PX}` },
  bottom_right: { x: `main_w-overlay_w-${LOGO_MARGIN_PX}`, y: `main_h-overlay_h-${LOGO_MARGIN_PX}` },
};
