import { Alert, Anchor, Box, Burger, Button, Container, Paper, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, useRouterState } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import { MSG } from '../../../shared/messages';
import { confirmBanner, useConfirmBanner } from '../auth/confirm-banner';
import { SessionWatcher } from '../auth/session-watcher';
import { useAuth } from '../auth/use-auth';
import { DashboardNav } from './dashboard-nav';
import { appNavItems, isAppAreaPath, isCurrent, sidebarLabel } from './dashboard-shell';
import { Logo } from './logo';
import { PLAIN_BUTTON } from './plain-controls';
import { SiteFooter, SkipLink } from './site-footer';
import { SocialLinks } from './social-links';
import { useLogout } from './use-logout';
import './layout.css';

/** The id of the page's <main>, the target of 'Skip to content'. */
const MAIN_CONTENT_ID = 'main-content';

/**
 * The page frame: header (Discover for everyone), the signed-in area's desktop sidebar (`DashboardNav`), the email banner,
 * the page and the footer. On a phone the burger menu lists the same entries for a signed-in user
 * (business: Dashboard, QR Code, Settings, Get in Touch; customer: no QR Code) and Logout.
 * The frame's geometry is plain CSS (./layout.css, `.app-frame`): a fixed 64 px header, and from
 * the `sm` breakpoint a fixed sidebar the page makes room for. Mantine's AppShell drew the same
 * but cost the first load about 9 KB gzipped (ADR 0055).
 */
export function AppLayout({ children }: { children: ReactNode }) {
  const { user, authState, isLoading } = useAuth();
  const { logout, pending } = useLogout();
  const [menuOpen, menu] = useDisclosure(false);
  // Re-render on navigation so the header always reflects the current page and session.
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const onDashboard = pathname.startsWith('/dashboard');
  const onHome = pathname === '/';
  const onDiscover = pathname === '/discover';
  // The signed-in area (dashboard, QR code, settings, contact) gets its sidebar on desktop.
  const withSidebar = Boolean(user) && authState === 'authenticated' && isAppAreaPath(pathname);
  useEffect(() => menu.close(), [pathname]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <div className="app-frame" data-with-sidebar={withSidebar || undefined}>
      <SkipLink targetId={MAIN_CONTENT_ID} />
      {/* right-scroll-bar-position: an open dialog's scroll lock keeps the fixed header in place. */}
      <header className="app-frame-header right-scroll-bar-position">
        <div className="app-header-bar">
          <Logo />
          {/* Desktop and tablet */}
          <div className="app-header-row mantine-visible-from-sm">
            <DiscoverLink current={onDiscover} />
            {onHome && <SectionLinks />}
            <SocialLinks />
            {/* Until auth.me answers (a page the server sent without it), neither Login nor Welcome. */}
            {isLoading ? null : user ? (
              <>
                <p className="app-header-welcome">
                  Welcome, <strong>{user.name}</strong>
                </p>
                {!onDashboard && !withSidebar && (
                  <Link to="/dashboard" className={PLAIN_BUTTON} data-variant="subtle">
                    <span>Dashboard</span>
                  </Link>
                )}
                <Button variant="default" onClick={() => void logout()} loading={pending}>
                  Logout
                </Button>
              </>
            ) : (
              <>
                <Link to="/login" className={PLAIN_BUTTON} data-variant="subtle">
                  <span>Login</span>
                </Link>
                <Link to="/register" className={PLAIN_BUTTON}>
                  <span>Sign Up</span>
                </Link>
              </>
            )}
          </div>
          {/* Phone: a burger opening a simple panel (no popover machinery in the first load) */}
          <Burger
            hiddenFrom="sm"
            opened={menuOpen}
            onClick={menu.toggle}
            size="sm"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
          />
        </div>
        {menuOpen && (
          <Paper
            id="mobile-menu"
            hiddenFrom="sm"
            shadow="md"
            radius={0}
            p="sm"
            style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
          >
            <Stack gap={4} onClick={menu.close}>
              <DiscoverLink current={onDiscover} vertical />
              {onHome && <SectionLinks vertical />}
              {isLoading ? null : user ? (
                <>
                  <Text size="sm" c="dimmed" px="sm" py={4} truncate>
                    Welcome, {user.name}
                  </Text>
                  {appNavItems(user.role).map((item) => (
                    <Button
                      key={item.to}
                      component={Link}
                      to={item.to}
                      variant={isCurrent(item, pathname) ? 'light' : 'subtle'}
                      justify="flex-start"
                    >
                      {item.label}
                    </Button>
                  ))}
                  <Button variant="subtle" justify="flex-start" onClick={() => void logout()} loading={pending}>
                    Logout
                  </Button>
                </>
              ) : (
                <>
                  <Button component={Link} to="/login" variant="subtle" justify="flex-start">
                    Login
                  </Button>
                  <Button component={Link} to="/register" justify="center">
                    Sign Up
                  </Button>
                </>
              )}
              <Box px={4} pt={4}>
                <SocialLinks />
              </Box>
            </Stack>
          </Paper>
        )}
      </header>

      {user && withSidebar && (
        <Box component="nav" className="app-frame-navbar" p="sm" aria-label={sidebarLabel(user.role)} visibleFrom="sm">
          <DashboardNav user={user} pathname={pathname} />
        </Box>
      )}

      {/* The page's one <main>; the footer follows it, outside. */}
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="app-frame-main">
        <SessionWatcher />
        <ConfirmEmailBanner />
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}

/** Discover, for everyone: open slots near a place. The phone menu's entries are Mantine's, left-aligned. */
function DiscoverLink({ current, vertical = false }: { current: boolean; vertical?: boolean }) {
  const ariaCurrent = current ? ('page' as const) : undefined;
  if (vertical)
    return (
      <Button
        component={Link}
        to="/discover"
        variant={current ? 'light' : 'subtle'}
        color="gray"
        justify="flex-start"
        aria-current={ariaCurrent}
      >
        Discover
      </Button>
    );
  return (
    <Link
      to="/discover"
      className={PLAIN_BUTTON}
      data-variant={current ? 'light' : 'subtle'}
      data-color="gray"
      aria-current={ariaCurrent}
    >
      <span>Discover</span>
    </Link>
  );
}

/** About and Pricing on the home page: scroll to their sections. */
function SectionLinks({ vertical = false }: { vertical?: boolean }) {
  const links = [
    { id: 'how-it-works', label: 'About' },
    { id: 'pricing', label: 'Pricing' },
  ];
  const scrollTo = (id: string) => (e: React.MouseEvent) => {
    const target = document.getElementById(id);
    if (!target) return;
    e.preventDefault();
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    target.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
    // Keyboard and screen-reader users continue from the section they jumped to.
    target.focus({ preventScroll: true });
  };
  return (
    <>
      {links.map((l) =>
        vertical ? (
          <Button
            key={l.id}
            component="a"
            href={`#${l.id}`}
            variant="subtle"
            color="gray"
            justify="flex-start"
            onClick={scrollTo(l.id)}
          >
            {l.label}
          </Button>
        ) : (
          <a
            key={l.id}
            href={`#${l.id}`}
            className={PLAIN_BUTTON}
            data-variant="subtle"
            data-color="gray"
            onClick={scrollTo(l.id)}
          >
            <span>{l.label}</span>
          </a>
        ),
      )}
    </>
  );
}

/**
 * 'Please confirm your email!': amber, dismissible. Shown after a sign-up or a login refused for an
 * unconfirmed email, with the sentence of the account's role (business: no booking slots; customer:
 * no bookings) when known (docs/decisions/0010). A confirmed session hides and clears it.
 */
function ConfirmEmailBanner() {
  const { user } = useAuth();
  const banner = useConfirmBanner();
  const onCheckEmail = useRouterState({ select: (s) => s.location.pathname === '/check-email' });
  const confirmed = Boolean(user?.isVerified);
  useEffect(() => {
    if (confirmed) confirmBanner.reset();
  }, [confirmed]);
  const unverified = Boolean(user && !user.isVerified);
  if (confirmed || banner.dismissed || (!unverified && !banner.raised)) return null;
  const role = user?.role ?? banner.role;
  const roleText =
    role === 'business' ? MSG.confirmBannerBusiness : role === 'customer' ? MSG.confirmBannerCustomer : null;
  return (
    <Container size="lg" pt="md">
      <Alert
        color="yellow"
        variant="light"
        title={MSG.confirmBannerTitle}
        withCloseButton
        closeButtonLabel="Dismiss"
        onClose={confirmBanner.dismiss}
        data-testid="confirm-email-banner"
      >
        {roleText && <Text size="sm">{roleText}</Text>}
        <Text size="sm">
          {MSG.confirmToContinue}{' '}
          {!onCheckEmail && (
            <Anchor component={Link} to="/check-email" size="sm">
              Resend the link
            </Anchor>
          )}
        </Text>
      </Alert>
    </Container>
  );
}
