/** The desktop sidebar of the signed-in area. */
import '@mantine/core/styles/NavLink.css';
import { Box, NavLink, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { appNavItems, isCurrent, sidebarTitle } from './dashboard-shell';
import { NavIcon } from './nav-icons';

/**
 * The desktop sidebar's content (the layout's `nav` landmark holds it): a title and the role's
 * entries, the current page highlighted; the entries scroll when the window is short.
 */
export function DashboardNav({
  user,
  pathname,
}: {
  user: { role: string; name: string; businessName: string | null };
  pathname: string;
}) {
  const title = sidebarTitle(user);
  return (
    <Stack gap="xs" h="100%">
      <Text fw={700} size="lg" px="sm" pt="xs" lineClamp={2} style={{ overflowWrap: 'anywhere' }} title={title}>
        {title}
      </Text>
      <Box style={{ flex: 1, overflowY: 'auto' }}>
        <Stack gap={2}>
          {appNavItems(user.role).map((item) => {
            const active = isCurrent(item, pathname);
            return (
              <NavLink
                key={item.to}
                component={Link}
                to={item.to}
                label={item.label}
                leftSection={<NavIcon name={item.icon} />}
                active={active}
                aria-current={active ? 'page' : undefined}
                variant="light"
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
              />
            );
          })}
        </Stack>
      </Box>
    </Stack>
  );
}
