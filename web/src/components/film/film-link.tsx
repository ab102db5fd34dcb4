import { useRouter } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, MouseEvent, ReactNode } from 'react';

type Props = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { slug: string; children: ReactNode };

/**
 * A link to a film page for long lists (cards, rails, sidebar). The router's <Link> resolves its
 * location on every render, which adds up over a page of a hundred cards on a slow phone; this one is
 * a plain anchor that navigates client-side and preloads on intent, like <Link> would.
 */
export function FilmLink({ slug, children, onClick, ...rest }: Props) {
  const router = useRouter();
  const options = { to: '/$slug', params: { slug } } as const;
  const preload = () => void router.preloadRoute(options).catch(() => undefined);
  const navigate = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.altKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    void router.navigate(options);
  };
  return (
    <a href={`/${encodeURIComponent(slug)}`} onClick={navigate} onMouseEnter={preload} onFocus={preload} onTouchStart={preload} {...rest}>
      {children}
    </a>
  );
}
