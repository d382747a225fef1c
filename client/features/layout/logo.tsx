import { Link } from '@tanstack/react-router';
import './layout.css';

export function LogoMark({ size = 30 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="var(--mantine-color-brand-7)" />
      <rect x="7" y="9" width="18" height="16" rx="2.5" fill="none" stroke="#fff" strokeWidth="2.4" />
      <path d="M7 14h18M12 6.5v5M20 6.5v5" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" />
      <path
        d="M12.5 19.5l2.5 2.3 4.8-4.8"
        fill="none"
        stroke="#fff"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The header logo: links home (plain elements, ./layout.css). */
export function Logo() {
  return (
    <Link to="/" aria-label="LastSlot home" className="app-logo mantine-focus-auto">
      <LogoMark />
      <span className="app-logo-name">LastSlot</span>
    </Link>
  );
}
