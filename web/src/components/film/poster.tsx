export const POSTER_ERROR_IMAGE = '/images/poster-error.svg';

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
 * A poster in a fixed 5:7 box (175x245 in listings), so nothing shifts while it loads. The box shows
 * the placeholder (drawn by global.css under the image) until the poster paints over it, and the
 * error image replaces a poster that fails (the poster's loading and fallback states). No React
 * state: a page shows a hundred of these.
 */
export function Poster({ src, alt, priority = false, className, width = 175, height = 245 }: PosterProps) {
  return (
    <span className={`poster ${className ?? ''}`}>
      <img
        src={src || POSTER_ERROR_IMAGE}
        alt={alt}
        width={width}
        height={height}
        loading={priority ? 'eager' : 'lazy'}
        decoding="async"
        fetchPriority={priority ? 'high' : 'auto'}
        onError={(e) => {
          const img = e.currentTarget;
          if (!img.src.endsWith(POSTER_ERROR_IMAGE)) img.src = POSTER_ERROR_IMAGE;
        }}
      />
    </span>
  );
}
