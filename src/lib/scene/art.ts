import variants from 'virtual:art-variants';

/**
 * The picture a scene bakes for an art URL: the largest WebP copy made at build time, which the scene
 * runtime's worker fetches and decodes itself (an SVG has to be rasterized on the main thread), else the
 * URL as it is (development, or art without copies).
 */
export function sceneArtUrl(url: string): string {
  const srcset = variants[url]?.webp;
  if (!srcset) return url;
  const largest = srcset.split(',').at(-1)?.trim().split(/\s+/)[0];
  return largest || url;
}
