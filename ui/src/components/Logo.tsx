/** The app mark: an approval check inside the brackets of a proposal. */
export function Logo({ size }: { size: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 1024 1024" aria-hidden="true" className="logo">
      <defs>
        <linearGradient id="logo-bg" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#4f46e5" />
          <stop offset="1" stopColor="#1e1b4b" />
        </linearGradient>
      </defs>
      <rect x="64" y="64" width="896" height="896" rx="220" fill="url(#logo-bg)" />
      <path d="M330 270H250V754H330M694 270H774V754H694" fill="none" stroke="#fbbf24" strokeWidth="56" />
      <path
        d="M360 530L470 640L670 400"
        fill="none"
        stroke="#fff"
        strokeWidth="84"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
