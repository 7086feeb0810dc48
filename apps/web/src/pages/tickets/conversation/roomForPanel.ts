import { useEffect, useState, type RefObject } from 'react';

/** Below this the header loses the contact's name and messages wrap every few words (issue 12, 1366 px with menu + drawer). */
export const MIN_CONVERSATION_WIDTH = 520;

/** Whether a side panel of `panelWidth` fits beside the conversation while the conversation keeps its minimum width. */
export function panelFits(containerWidth: number, panelWidth: number): boolean {
  return containerWidth - panelWidth >= MIN_CONVERSATION_WIDTH;
}

/** The element's current width, followed as the window, the menu or the list resize it (0 before the first layout). */
export function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.getBoundingClientRect().width);
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
