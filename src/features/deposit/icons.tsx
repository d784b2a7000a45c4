import { StrokeIcon, type IconProps } from '../../lib/ui/icons';

// Deposit method marks, 24×24 grid.

export function CryptoBotMark({ size = 22 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" aria-hidden="true" focusable="false">
      <path d="M12 3v2.5" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      <circle cx="12" cy="2.6" r="1.3" fill="currentColor" />
      <rect x="4" y="6" width="16" height="13" rx="4.5" stroke="currentColor" strokeWidth="1.8" />
      <circle cx="9.2" cy="12" r="1.6" fill="currentColor" />
      <circle cx="14.8" cy="12" r="1.6" fill="currentColor" />
      <path d="M9.5 15.6c1.5.9 3.5.9 5 0" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      <path d="M2 11v3M22 11v3" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}

export function GiftMarkSmall({ size = 22 }: IconProps) {
  return (
    <StrokeIcon size={size} strokeWidth="1.8">
      <rect x="3.5" y="9" width="17" height="11.5" rx="2" />
      <path d="M2.5 9h19V6.5a1 1 0 0 0-1-1h-17a1 1 0 0 0-1 1Z" />
      <path d="M12 5.5v15" />
      <path d="M12 5.5C10.5 2.8 7 2.6 7 4.3S9.5 5.5 12 5.5s5-.5 5-1.2-3.5-1.5-5 1.2Z" />
    </StrokeIcon>
  );
}

export function BackArrow({ size = 20 }: IconProps) {
  return (
    <StrokeIcon size={size} strokeWidth="2">
      <path d="m15 5-7 7 7 7" />
    </StrokeIcon>
  );
}

export function ChevronRight({ size = 18 }: IconProps) {
  return (
    <StrokeIcon size={size} strokeWidth="2">
      <path d="m9 5 7 7-7 7" />
    </StrokeIcon>
  );
}

export function BigCheck({ size = 40 }: IconProps) {
  return (
    <StrokeIcon size={size} strokeWidth="2.6">
      <path className="deposit-check__path" d="m5 12.5 4.5 4.5L19 7.5" />
    </StrokeIcon>
  );
}
