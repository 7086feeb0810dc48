/** Spec 2 §9: the ticket list is between 404 and 700 px wide on wide screens. */
export const LIST_MIN_WIDTH = 404;
export const LIST_MAX_WIDTH = 700;
/** A user who never chose a width. */
export const LIST_DEFAULT_WIDTH = 550;
/** Arrow keys on the divider move it by this much. */
export const LIST_WIDTH_STEP = 10;

export function clampListWidth(width: number | null | undefined): number {
  if (typeof width !== 'number' || !Number.isFinite(width)) return LIST_DEFAULT_WIDTH;
  return Math.round(Math.min(LIST_MAX_WIDTH, Math.max(LIST_MIN_WIDTH, width)));
}
