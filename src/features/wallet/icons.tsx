import type { ReactNode } from 'react';
import { StrokeIcon, type IconProps } from '../../lib/ui/icons';

// Wallet icons on a 24×24 grid, drawn with the current text colour.
function Svg({ size = 18, children }: IconProps & { children: ReactNode }) {
  return (
    <StrokeIcon size={size} strokeWidth="1.9">
      {children}
    </StrokeIcon>
  );
}

export const WalletIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M19 7V5.5A1.5 1.5 0 0 0 17.5 4H6a2.5 2.5 0 0 0 0 5h13a1 1 0 0 1 1 1v3.5" />
    <path d="M3.5 6.5v11A2.5 2.5 0 0 0 6 20h13a1 1 0 0 0 1-1v-2.5" />
    <path d="M21 13.5h-4a1.75 1.75 0 0 0 0 3.5h4Z" />
  </Svg>
);

export const ChevronIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="m6 9 6 6 6-6" />
  </Svg>
);

export const CopyIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="8.5" y="8.5" width="12" height="12" rx="2.5" />
    <path d="M15.5 8.5V6a2.5 2.5 0 0 0-2.5-2.5H6A2.5 2.5 0 0 0 3.5 6v7A2.5 2.5 0 0 0 6 15.5h2.5" />
  </Svg>
);

export const CheckIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </Svg>
);

export const DisconnectIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M14 4.5h3.5a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H14" />
    <path d="M10 16.5 5.5 12 10 7.5" />
    <path d="M5.5 12H15" />
  </Svg>
);
