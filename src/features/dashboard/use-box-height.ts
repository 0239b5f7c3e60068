import { useLayoutEffect, useState } from 'react';

/**
 * The height of a box as it resizes (charts drawn on a canvas need pixels, not percentages). A callback
 * ref: the box mounts only once the panel has data, after the panel itself.
 */
export function useBoxHeight<T extends HTMLElement>(min = 80): [(el: T | null) => void, number] {
  const [el, setEl] = useState<T | null>(null);
  const [height, setHeight] = useState(min);
  useLayoutEffect(() => {
    if (!el) return;
    const read = () => setHeight(Math.max(min, Math.floor(el.clientHeight)));
    read();
    const ro = new ResizeObserver(read);
    ro.observe(el);
    return () => ro.disconnect();
  }, [el, min]);
  return [setEl, height];
}
