/** The TON coin mark. */
export function TonIcon({ size = 16 }: { size?: number }) {
  return (
    <svg
      className="ton-icon"
      width={size}
      height={size}
      viewBox="0 0 56 56"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="28" cy="28" r="28" fill="#0098EA" />
      <path
        fill="#fff"
        d="M37.6 15.6H18.4c-3.5 0-5.8 3.8-4 6.9l11.8 20.5c.8 1.4 2.8 1.4 3.6 0l11.8-20.5c1.8-3.1-.4-6.9-4-6.9Zm-11.3 21.2-2.6-5-6.2-11.2c-.4-.7.1-1.6.9-1.6h7.9v17.8Zm12.4-16.2-6.2 11.2-2.6 5V19h7.9c.9 0 1.3.9.9 1.6Z"
      />
    </svg>
  );
}
