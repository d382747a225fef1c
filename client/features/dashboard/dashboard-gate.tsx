/**
 * The /dashboard gate: shows exactly one outcome for the signed-in user read from auth.me, or a
 * screen saying why that cannot be read. How it shares the work with the protected-route guard is
 * in docs/decisions/0011-dashboard-gate.md.
 */
import { Button, Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link, Navigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { MSG } from '../../../shared/messages';
import { useAuth } from '../auth/use-auth';
import { BackToHome } from '../layout/back-to-home';
import { FullPageLoader } from '../layout/full-page-loader';
import { useWaitLimit } from '../../lib/requests';
import { usePageTitle } from '../../lib/use-page-title';
import { FIRST_ATTEMPT_MS, LATER_ATTEMPT_MS } from './dashboard-route';

/** 'Authentication Issue': Retry becomes 'Force Refresh' (a page reload) after this many retries. */
export const RETRIES_BEFORE_FORCE_REFRESH = 2;

type User = NonNullable<ReturnType<typeof useAuth>['user']>;

/**
 * Renders `children(user)` for a signed-in business or customer; otherwise one screen: 'Loading
 * dashboard...', 'Loading Timeout', 'Authentication Issue' (auth.me failed), 'Authentication
 * Required' (nobody signed in), 'Role Selection Required' (no role), 'Permission Error' (a role
 * that is neither business nor customer). `startTimedOut`: the route's guard already waited the
 * first attempt's 2 s without an answer.
 */
export function DashboardGate({
  startTimedOut = false,
  children,
}: {
  startTimedOut?: boolean;
  children: (user: User) => ReactNode;
}) {
  const { query } = useAuth();
  // Attempt 1 when the route's guard already used up the first attempt.
  const [attempt, setAttempt] = useState(startTimedOut ? 1 : 0);
  const [issueRetries, setIssueRetries] = useState(0);
  const loading = !query.data && (query.isPending || query.isFetching);
  const waitedTooLong = useWaitLimit(loading, attempt === 0 ? FIRST_ATTEMPT_MS : LATER_ATTEMPT_MS, attempt);
  const timedOut = waitedTooLong || (startTimedOut && attempt === 1);

  const retryLoading = () => {
    setAttempt((a) => a + 1);
    void query.refetch();
  };

  const data = query.data;
  if (data) {
    if (data.authState === 'pending_email') return <Navigate to="/check-email" replace />;
    if (data.authState === 'profile_incomplete') return <Navigate to="/complete-business-profile" replace />;
    const user = data.user;
    if (data.authState === 'unregistered' || !user) {
      return (
        <GateScreen title={MSG.authRequiredGateTitle} text={MSG.authRequiredGate}>
          <Button component={Link} to="/login">
            Log In
          </Button>
        </GateScreen>
      );
    }
    const role = user.role as string | null | undefined;
    if (!role) {
      return (
        <GateScreen title={MSG.roleSelectionTitle} text={MSG.roleSelection}>
          <Button component={Link} to="/register">
            Choose a role
          </Button>
        </GateScreen>
      );
    }
    if (role !== 'business' && role !== 'customer') {
      return (
        <GateScreen title={MSG.permissionErrorTitle} text={MSG.permissionError} tone="red">
          <BackToHome />
        </GateScreen>
      );
    }
    return <>{children(user)}</>;
  }

  if (query.isError && !query.isFetching) {
    const force = issueRetries >= RETRIES_BEFORE_FORCE_REFRESH;
    return (
      <GateScreen title={MSG.authIssueTitle} text={MSG.authIssue} tone="red">
        <Button
          onClick={() => {
            if (force) {
              window.location.reload();
              return;
            }
            setIssueRetries((n) => n + 1);
            retryLoading();
          }}
        >
          {force ? 'Force Refresh' : 'Retry'}
        </Button>
        <BackToHome />
      </GateScreen>
    );
  }

  if (timedOut) {
    return (
      <GateScreen title={MSG.loadingTimeoutTitle} text={MSG.loadingTimeout} tone="yellow">
        <Button onClick={retryLoading}>Retry</Button>
        <BackToHome />
      </GateScreen>
    );
  }
  return <FullPageLoader label={MSG.loadingDashboard} title="Loading dashboard" />;
}

/** One centred gate outcome: a title, a sentence and its buttons. */
function GateScreen({
  title,
  text,
  tone = 'blue',
  children,
}: {
  title: string;
  text: string;
  tone?: 'blue' | 'red' | 'yellow';
  children: ReactNode;
}) {
  usePageTitle(title);
  return (
    <Center mih="60vh" p="md">
      <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }} maw={460} w="100%" role="alert">
        <Stack align="center" gap="sm" ta="center">
          <ThemeIcon size={48} radius="xl" variant="light" color={tone} aria-hidden>
            <Text fw={800} fz={22} lh={1}>
              !
            </Text>
          </ThemeIcon>
          <Title order={1} fz={{ base: 22, sm: 26 }}>
            {title}
          </Title>
          <Text c="dimmed">{text}</Text>
          <Group justify="center" gap="sm" mt="xs">
            {children}
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
