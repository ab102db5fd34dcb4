import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Renders its children once they come near the viewport; until then a box of `minHeight` holds
 * their place (so nothing below moves). Keeps a long page's first render small on slow phones.
 */
export function LazyMount({ children, minHeight, rootMargin = '200px' }: { children: ReactNode; minHeight: number; rootMargin?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  // Starts hidden everywhere, the server included, so a server-rendered page hydrates to the same markup.
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (visible || !ref.current) return;
    if (typeof IntersectionObserver === 'undefined') return setVisible(true);
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setVisible(true);
          observer.disconnect();
        }
      },
      { rootMargin },
    );
    observer.observe(ref.current);
    return () => observer.disconnect();
  }, [visible, rootMargin]);
  if (visible) return <>{children}</>;
  return <div ref={ref} style={{ minHeight }} aria-hidden="true" />;
}
