/** The app's gift mark, shown on the launch screens. */
export function GiftMark() {
  return (
    <svg
      width="38"
      height="38"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      aria-hidden="true"
    >
      <rect x="3.5" y="9" width="17" height="11.5" rx="2" />
      <path d="M2.5 9h19V6.5a1 1 0 0 0-1-1h-17a1 1 0 0 0-1 1Z" />
      <path d="M12 5.5v15" />
      <path d="M12 5.5C10.5 2.8 7 2.6 7 4.3S9.5 5.5 12 5.5s5-.5 5-1.2-3.5-1.5-5 1.2Z" />
    </svg>
  );
}
