import type { ReactNode } from 'react';
import { StrokeIcon, type IconProps } from '../../lib/ui/icons';

// Tab and header icons, drawn on a 24×24 grid with the current text colour.
function Svg({ size = 24, children }: IconProps & { children: ReactNode }) {
  return (
    <StrokeIcon size={size} strokeWidth="1.8">
      {children}
    </StrokeIcon>
  );
}

export const UpgradeIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M12 20V9" />
    <path d="m7 13 5-5 5 5" />
    <path d="M5 4h14" />
  </Svg>
);

export const WheelIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="8.5" />
    <circle cx="12" cy="12" r="2" />
    <path d="M12 3.5V10M12 14v6.5M3.5 12H10M14 12h6.5M6 6l4.6 4.6M13.4 13.4 18 18M18 6l-4.6 4.6M10.6 13.4 6 18" />
  </Svg>
);

export const CasesIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="3.5" y="8" width="17" height="12" rx="2" />
    <path d="M2.5 8h19V5.5a1 1 0 0 0-1-1h-17a1 1 0 0 0-1 1Z" />
    <path d="M12 4.5V20" />
    <path d="M9.5 4.5C8 2.5 6 2.8 6 4s2 .5 6 .5c4 0 6 .7 6-.5s-2-1.5-3.5.5" />
  </Svg>
);

export const RaceIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M5 21V4" />
    <path d="M5 4h12l-2.5 4L17 12H5" />
  </Svg>
);

export const BattleIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M14.5 17.5 3 6V3h3l11.5 11.5" />
    <path d="m13 19 6-6M16 16l4 4M19 21l2-2" />
    <path d="M9.5 6.5 13 3h3v3l-3.5 3.5" />
    <path d="m5 14 4 4M7 17l-3 3M3 19l2 2" />
  </Svg>
);

export const ProfileIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 20.5c.8-4 4-6 8-6s7.2 2 8 6" />
  </Svg>
);

export const BackIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="m15 5-7 7 7 7" />
  </Svg>
);
