import { useCallback, useEffect, useState } from 'react';

/**
 * The live width of an element, through a callback ref (so an element that
 * mounts later is measured too): a pane lays out by its own room, not the
 * window's, since the list and the drawer take part of it.
 */
export function useElementWidth<T extends HTMLElement>(): [(node: T | null) => void, number] {
  const [node, setNode] = useState<T | null>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!node) return;
    setWidth(node.getBoundingClientRect().width);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(entry.contentRect.width);
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [node]);
  const ref = useCallback((el: T | null) => setNode(el), []);
  return [ref, width];
}
