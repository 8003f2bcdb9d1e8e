// Small inline icons (no icon font: nothing extra to download).
type IconProps = { size?: number; className?: string };

/**
 * The one wrapper of every icon: a 24-unit stroke drawing, hidden from assistive technology (the
 * control beside it carries the name). Pages define the icons only they use with it, so those paths
 * stay in their own chunk.
 */
export function svg(path: React.ReactNode, { size = 24, className }: IconProps = {}) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {path}
    </svg>
  );
}

export const BackIcon = (p: IconProps) => svg(<path d="M15 18l-6-6 6-6" />, p);
export const BellIcon = (p: IconProps) =>
  svg(
    <>
      <path d="M18 8a6 6 0 10-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
      <path d="M13.7 21a2 2 0 01-3.4 0" />
    </>,
    p,
  );
export const SearchIcon = (p: IconProps) =>
  svg(
    <>
      <circle cx="11" cy="11" r="7" />
      <path d="M21 21l-4.3-4.3" />
    </>,
    p,
  );
export const HomeIcon = (p: IconProps) =>
  svg(
    <>
      <path d="M3 10.5L12 3l9 7.5" />
      <path d="M5 9.5V21h14V9.5" />
    </>,
    p,
  );
export const ReceiptIcon = (p: IconProps) =>
  svg(
    <>
      <path d="M5 3h14v18l-3-2-2 2-2-2-2 2-2-2-3 2z" />
      <path d="M9 8h6M9 12h6" />
    </>,
    p,
  );
export const UserIcon = (p: IconProps) =>
  svg(
    <>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c0-4 4-6 8-6s8 2 8 6" />
    </>,
    p,
  );
/** A product without a photo (the card's and the detail's placeholder). */
export const PhotoIcon = (p: IconProps) =>
  svg(
    <>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <circle cx="9" cy="10" r="2" />
      <path d="M21 16l-5-5-9 8" />
    </>,
    p,
  );
export const CloseIcon = (p: IconProps) => svg(<path d="M18 6L6 18M6 6l12 12" />, p);
export const EditIcon = (p: IconProps) =>
  svg(
    <>
      <path d="M12 20h9" />
      <path d="M16.5 3.5a2.1 2.1 0 013 3L7 19l-4 1 1-4z" />
    </>,
    p,
  );
export const HelpIcon = (p: IconProps) =>
  svg(
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M9.1 9a3 3 0 015.8 1c0 2-3 3-3 3" />
      <path d="M12 17h.01" />
    </>,
    p,
  );
export const LogoutIcon = (p: IconProps) =>
  svg(
    <>
      <path d="M9 21H5a2 2 0 01-2-2V5a2 2 0 012-2h4" />
      <path d="M16 17l5-5-5-5M21 12H9" />
    </>,
    p,
  );
export const StarIcon = (p: IconProps) => (
  <svg
    className={p.className}
    width={p.size ?? 14}
    height={p.size ?? 14}
    viewBox="0 0 24 24"
    fill="#f5a623"
    aria-hidden="true"
    focusable="false"
  >
    <path d="M12 2l3.1 6.3 6.9 1-5 4.9 1.2 6.8L12 17.8 5.8 21l1.2-6.8-5-4.9 6.9-1z" />
  </svg>
);
export const WalletIcon = (p: IconProps) =>
  svg(
    <>
      <path d="M3 7a2 2 0 012-2h13v4" />
      <path d="M3 7v11a2 2 0 002 2h15V9H5a2 2 0 01-2-2z" />
      <path d="M16 14.5h.01" />
    </>,
    p,
  );
