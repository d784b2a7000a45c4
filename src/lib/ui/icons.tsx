import type { ReactNode } from 'react';

/** Props of an icon: its size in CSS px (each icon set has its own default). */
export interface IconProps {
  size?: number;
}

interface StrokeIconProps {
  /** Width and height, CSS px. */
  size: number;
  /** Stroke width in grid units. */
  strokeWidth: string;
  children: ReactNode;
}

/** A line icon on a 24×24 grid, stroked with the current text colour, hidden from assistive technology. */
export function StrokeIcon({ size, strokeWidth, children }: StrokeIconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}
