import { useState } from 'react';
import variants from 'virtual:art-variants';

interface ArtImageProps {
  src: string | null | undefined;
  className?: string;
  /** on the first screen: load at once with high priority (the page preloads these), not lazily */
  priority?: boolean;
}

/**
 * Case or item art; a missing or broken picture shows a gift placeholder (spec §8). Art with raster copies
 * made at build time (AVIF, WebP at 1x and 2x of its slot) is offered as those, the original as fallback.
 */
export function ArtImage({ src, className, priority = false }: ArtImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src || failedSrc === src) {
    return (
      <span className={`art-placeholder ${className ?? ''}`} aria-hidden="true">
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5">
          <rect x="3.5" y="9" width="17" height="11.5" rx="2" />
          <path d="M2.5 9h19V6.5a1 1 0 0 0-1-1h-17a1 1 0 0 0-1 1Z" />
          <path d="M12 5.5v15" />
          <path d="M12 5.5C10.5 2.8 7 2.6 7 4.3S9.5 5.5 12 5.5s5-.5 5-1.2-3.5-1.5-5 1.2Z" />
        </svg>
      </span>
    );
  }
  const img = (
    <img
      className={className}
      src={src}
      alt=""
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : 'auto'}
      decoding="async"
      onError={() => setFailedSrc(src)}
    />
  );
  const raster = variants[src];
  if (!raster) return img;
  return (
    <picture>
      <source type="image/avif" srcSet={raster.avif} />
      <source type="image/webp" srcSet={raster.webp} />
      {img}
    </picture>
  );
}
