import { useLayoutEffect, useRef, useState } from 'react';

/** The height of a box as it resizes (charts drawn on a canvas need pixels, not percentages). */
export function useBoxHeight<T extends HTMLElement>(min = 80): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [height, setHeight] = useState(min);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const read = () => setHeight(Math.max(min, Math.floor(el.clientHeight)));
    read();
    const ro = new ResizeObserver(read);
    ro.observe(el);
    return () => ro.disconnect();
  }, [min]);
  return [ref, height];
}
