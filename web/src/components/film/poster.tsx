import { useState } from 'react';

const PLACEHOLDER = '/images/poster-placeholder.svg';
const ERROR_IMAGE = '/images/poster-error.svg';

interface PosterProps {
  src: string;
  alt: string;
  /** Above the fold: load eagerly with high priority (the LCP candidate). */
  priority?: boolean;
  className?: string;
  width?: number;
  height?: number;
}

/**
 * A poster in a fixed 5:7 box (175x245 in listings), so nothing shifts while it loads: the box shows
 * the placeholder until the image arrives, and the error image if it fails (SPEC.md §4 poster states).
 */
export function Poster({ src, alt, priority = false, className, width = 175, height = 245 }: PosterProps) {
  const [state, setState] = useState<'loading' | 'loaded' | 'error'>(src ? 'loading' : 'error');
  return (
    <span className={`poster poster-${state} ${className ?? ''}`} style={{ backgroundImage: `url(${PLACEHOLDER})` }}>
      <img
        src={state === 'error' ? ERROR_IMAGE : src}
        alt={alt}
        width={width}
        height={height}
        loading={priority ? 'eager' : 'lazy'}
        decoding="async"
        fetchPriority={priority ? 'high' : 'auto'}
        onLoad={() => setState((s) => (s === 'error' ? s : 'loaded'))}
        onError={() => setState('error')}
      />
    </span>
  );
}
