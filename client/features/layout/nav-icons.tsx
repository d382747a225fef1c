/** Small line icons of the signed-in navigation (decorative: the links carry the text). */
import type { ReactNode } from 'react';

/** A decorative line icon drawn in currentColor: `size` in px (square), `children` the SVG shapes on a 24-unit grid. */
export function LineIcon({ children, size = 18 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export type NavIconName = 'dashboard' | 'qrcode' | 'settings' | 'contact';

/** The icon of one navigation entry. */
export function NavIcon({ name }: { name: NavIconName }) {
  switch (name) {
    case 'dashboard':
      return (
        <LineIcon>
          <rect x="4" y="4" width="6.5" height="8" rx="1.5" />
          <rect x="13.5" y="4" width="6.5" height="5" rx="1.5" />
          <rect x="4" y="15" width="6.5" height="5" rx="1.5" />
          <rect x="13.5" y="12" width="6.5" height="8" rx="1.5" />
        </LineIcon>
      );
    case 'qrcode':
      return (
        <LineIcon>
          <rect x="4" y="4" width="6" height="6" rx="1" />
          <rect x="14" y="4" width="6" height="6" rx="1" />
          <rect x="4" y="14" width="6" height="6" rx="1" />
          <path d="M14 14h2v2h-2zM18 14h2M14 20h2M18 18v2h2M20 16v0" />
        </LineIcon>
      );
    case 'settings':
      return (
        <LineIcon>
          <path d="M4 7h9M17 7h3M4 17h3M11 17h9" />
          <circle cx="15" cy="7" r="2" />
          <circle cx="9" cy="17" r="2" />
        </LineIcon>
      );
    case 'contact':
      return (
        <LineIcon>
          <rect x="3" y="5" width="18" height="14" rx="2" />
          <path d="M3 7l9 6 9-6" />
        </LineIcon>
      );
  }
}
