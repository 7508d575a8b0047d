/** Spec 000 §2: the header is 100 px plus 50 px for each error notification and for a new-version notice. */
export const HEADER_BASE_PX = 100;
export const NOTICE_PX = 50;

export function headerHeightPx(errorNotices: number, newVersion: boolean): number {
  return HEADER_BASE_PX + NOTICE_PX * (errorNotices + (newVersion ? 1 : 0));
}
