/**
 * The signed-in area's navigation: dashboard, QR code (businesses), settings and contact. The
 * layout shows the sidebar (./dashboard-nav.tsx, loaded apart from the first-load bundle) on
 * desktop for the pages listed by `isAppAreaPath`; the phone menu lists the same entries.
 */
import { MSG } from '../../../shared/messages';
import type { NavIconName } from './nav-icons';

export type AppPath = '/dashboard' | '/qrcode' | '/settings' | '/contact';

export interface AppNavItem {
  to: AppPath;
  label: string;
  icon: NavIconName;
  /** Paths (without a trailing slash) on which the entry is the current page. */
  current: readonly string[];
}

const DASHBOARD: AppNavItem = { to: '/dashboard', label: 'Dashboard', icon: 'dashboard', current: ['/dashboard'] };
const QR_CODE: AppNavItem = {
  to: '/qrcode',
  label: 'QR Code',
  icon: 'qrcode',
  current: ['/qrcode', '/dashboard/qrcode'],
};
const SETTINGS: AppNavItem = {
  to: '/settings',
  label: 'Settings',
  icon: 'settings',
  current: ['/settings', '/dashboard/settings', '/dashboard/customer/settings'],
};
const CONTACT: AppNavItem = { to: '/contact', label: MSG.getInTouch, icon: 'contact', current: ['/contact'] };

/**
 * The entries for `role`: a business gets Dashboard, QR Code, Settings, Get in Touch; a customer
 * (or any other role) Dashboard, Settings, Get in Touch.
 */
export function appNavItems(role: string | null | undefined): AppNavItem[] {
  return role === 'business' ? [DASHBOARD, QR_CODE, SETTINGS, CONTACT] : [DASHBOARD, SETTINGS, CONTACT];
}

function normalise(pathname: string): string {
  return pathname.replace(/\/+$/, '') || '/';
}

/** Whether `item` is the page at `pathname`. */
export function isCurrent(item: AppNavItem, pathname: string): boolean {
  return item.current.includes(normalise(pathname));
}

/** /dashboard, /qrcode, /settings, /contact and their /dashboard/... variants: the pages with the sidebar. */
export function isAppAreaPath(pathname: string): boolean {
  const p = normalise(pathname);
  return p === '/dashboard' || p.startsWith('/dashboard/') || p === '/qrcode' || p === '/settings' || p === '/contact';
}

/** The sidebar title: the business name (falling back to 'Business'), or a customer's name. */
export function sidebarTitle(user: { role: string; name: string; businessName: string | null }): string {
  if (user.role === 'business') return user.businessName?.trim() || 'Business';
  return user.name.trim() || 'Customer';
}

/** The accessible name of the sidebar's navigation landmark. */
export function sidebarLabel(role: string): string {
  return role === 'business' ? 'Business navigation' : 'Account navigation';
}
