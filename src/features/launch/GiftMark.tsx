import { GIFT_MARK } from './gift-mark';

/** The app's gift mark, shown on the launch screens. */
export function GiftMark() {
  const { size, viewBox, strokeWidth, box, paths } = GIFT_MARK;
  return (
    <svg
      width={size}
      height={size}
      viewBox={viewBox}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      aria-hidden="true"
    >
      <rect {...box} />
      {paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
