/**
 * The app's gift mark: one 24×24 stroke drawing, shown by the launch screens (GiftMark) and written into
 * index.html at build time, so the loading screen paints before any script has run.
 */
export const GIFT_MARK = {
  /** drawn size on the launch screens, px */
  size: 38,
  viewBox: '0 0 24 24',
  strokeWidth: 1.8,
  box: { x: 3.5, y: 9, width: 17, height: 11.5, rx: 2 },
  paths: [
    'M2.5 9h19V6.5a1 1 0 0 0-1-1h-17a1 1 0 0 0-1 1Z',
    'M12 5.5v15',
    'M12 5.5C10.5 2.8 7 2.6 7 4.3S9.5 5.5 12 5.5s5-.5 5-1.2-3.5-1.5-5 1.2Z',
  ],
} as const;

/** The mark as SVG markup, for the page before the app. */
export function giftMarkSvg(): string {
  const { size, viewBox, strokeWidth, box, paths } = GIFT_MARK;
  return (
    `<svg width="${size}" height="${size}" viewBox="${viewBox}" fill="none" stroke="currentColor" ` +
    `stroke-width="${strokeWidth}" aria-hidden="true">` +
    `<rect x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" rx="${box.rx}"/>` +
    paths.map((d) => `<path d="${d}"/>`).join('') +
    `</svg>`
  );
}
