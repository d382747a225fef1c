import { Button, Center, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useState, type ReactNode } from 'react';
import { hasBusinessIdentity } from '../../../shared/format';
import { MSG } from '../../../shared/messages';
import { noticeFor, TIME_LIMITS_MS, useWaitLimit, type NoticeTexts } from '../../lib/requests';
import { errorInfo } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';
import { useAuth } from '../auth/use-auth';
import { BackToHome } from '../layout/back-to-home';
import { LoadedPage } from './loaded-page';
import { useBusinessBySlug } from './use-business-by-slug';

/** Load failure texts: the time-out's, else the generic one (never the server's). */
const LOAD_TEXTS: NoticeTexts = { timeout: MSG.pageTimeout, failed: MSG.pageLoadFailed, refused: MSG.pageLoadFailed };

const route = getRouteApi('/$slug');

/** The screen at /{slug}: the page for the address's slug, started afresh when the slug changes. */
export function PublicBusinessScreen() {
  const { slug } = route.useParams();
  return <PublicBusinessPage key={slug} slug={slug} />;
}

/**
 * The public business page /{slug} (ADR 0019): loading, then the page, 'Business Not Found', 'Error
 * Loading Business' (with Try Again) or 'Invalid Business Data'; after 10 s of waiting, 'Loading
 * took too long. Please refresh the page.'
 */
export function PublicBusinessPage({ slug }: { slug: string }) {
  const { user } = useAuth();
  const viewerOwnsSlug = user?.role === 'business' && user.businessSlug === slug;
  const { query, queryKey } = useBusinessBySlug(slug, viewerOwnsSlug);
  const queryClient = useQueryClient();

  // The load guard: counted per attempt; Try Again starts a new one.
  const [attempt, setAttempt] = useState(0);
  const waiting = query.isPending;
  const tooLong = useWaitLimit(waiting, TIME_LIMITS_MS.publicPageGuard, attempt) && waiting;

  // Stable, for the memoised slot list (its Try Again after a failed refresh).
  const { refetch } = query;
  const retryRefresh = useCallback(() => void refetch(), [refetch]);

  const tryAgain = () => {
    setAttempt((a) => a + 1);
    void queryClient.resetQueries({ queryKey, exact: true });
  };

  const notFound = query.isError && !query.data && errorInfo(query.error).code === 'NOT_FOUND';
  const data = query.data;
  const valid = data ? hasBusinessIdentity(data.business) : true;

  let title: string | null = null;
  if (data) title = valid ? data.business.businessName : MSG.pageInvalidTitle;
  else if (notFound) title = MSG.pageBusinessNotFound;
  else if (query.isError || tooLong) title = MSG.pageErrorTitle;
  usePageTitle(title);

  if (data) {
    if (!valid) {
      return (
        <PageMessage
          title={MSG.pageInvalidTitle}
          text={MSG.pageInvalidDetail}
          actions={<BackToHome />}
          testId="public-page-invalid"
        />
      );
    }
    return (
      <LoadedPage
        data={data}
        slug={slug}
        refreshError={query.isError ? query.error : null}
        refreshing={query.isFetching}
        onRetry={retryRefresh}
      />
    );
  }
  if (notFound) return <BusinessNotFound slug={slug} />;
  if (query.isError) {
    return (
      <PageMessage
        title={MSG.pageErrorTitle}
        text={noticeFor(query.error, LOAD_TEXTS).message}
        actions={<Button onClick={tryAgain}>{MSG.pageTryAgain}</Button>}
        testId="public-page-error"
        alert
      />
    );
  }
  if (tooLong) {
    return (
      <PageMessage
        title={MSG.pageErrorTitle}
        text={MSG.pageTooLong}
        actions={
          <>
            <Button onClick={() => window.location.reload()}>Refresh Page</Button>
            <Button variant="default" onClick={tryAgain}>
              {MSG.pageTryAgain}
            </Button>
          </>
        }
        testId="public-page-error"
        alert
      />
    );
  }
  return (
    <Center mih="50vh" p="md" data-page-loading>
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader size="lg" />
        <Text c="dimmed">Loading business...</Text>
      </Stack>
    </Center>
  );
}

/** 'Business Not Found' for /{slug}: no business has the slug. */
export function BusinessNotFound({ slug }: { slug: string }) {
  usePageTitle(MSG.pageBusinessNotFound);
  return (
    <PageMessage
      title={MSG.pageBusinessNotFound}
      text={`There is no business at /${slug}. Please check the link you were given.`}
      actions={<BackToHome />}
      testId="public-page-not-found"
    />
  );
}

/** A centred heading, text and actions: the page's not-found, error and invalid states. */
function PageMessage({
  title,
  text,
  actions,
  testId,
  alert = false,
}: {
  title: string;
  text: string;
  actions: ReactNode;
  testId: string;
  alert?: boolean;
}) {
  return (
    <Container size="sm" py={{ base: 48, sm: 80 }} px={{ base: 'sm', sm: 'md' }} data-testid={testId}>
      <Stack align="center" gap="md">
        <Title order={1} fz={{ base: 26, sm: 32 }} ta="center">
          {title}
        </Title>
        <Text c="dimmed" ta="center" maw={460} role={alert ? 'alert' : undefined}>
          {text}
        </Text>
        <Group justify="center" gap="sm">
          {actions}
        </Group>
      </Stack>
    </Container>
  );
}
