import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Container,
  Grid,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { getQueryKey } from '@trpc/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { businessTypeLabel } from '../../../shared/categories';
import {
  bookingFailureNotice,
  formatDate,
  formatTime,
  formatTimeRange,
  hasBusinessIdentity,
  shortAddress,
} from '../../../shared/format';
import { MSG } from '../../../shared/messages';
import { NOTES_MAX } from '../../../shared/schemas/limits';
import { WEEKDAY_LABEL, WEEKDAYS } from '../../../shared/opening-hours';
import { useActionKeys } from '../../lib/action-keys';
import {
  callWithTimeout,
  noticeFor,
  retryAfterFailures,
  TIME_LIMITS_MS,
  useWaitLimit,
  type NoticeTexts,
} from '../../lib/requests';
import { errorInfo, trpc, trpcClient, type RouterOutputs } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';
import { useAuth } from '../auth/use-auth';
import { FavouriteButton } from '../favourites/favourite-button';
import { BackToHome } from '../layout/back-to-home';

type PublicData = RouterOutputs['businesses']['bySlug'];
type Slot = PublicData['slots'][number];
type SignInReason = 'request' | 'favourite';

/** A failed call is retried twice, 1 s then 2 s later; an answer (4xx) is not retried. */
const FETCH_RETRIES = retryAfterFailures([1_000, 2_000]);
/** NOT_FOUND for the viewer's own page (its slug just changed) is retried 3 times at 1 s steps. */
const OWNER_NOT_FOUND_RETRIES = 3;
const OWNER_NOT_FOUND_STEP_MS = 1_000;

const isNotFound = (err: unknown) => errorInfo(err).code === 'NOT_FOUND';

/** Load failure texts: the time-out's, else the generic one (never the server's). */
const LOAD_TEXTS: NoticeTexts = { timeout: MSG.pageTimeout, failed: MSG.pageLoadFailed, refused: MSG.pageLoadFailed };
const SLOTS_TEXTS: NoticeTexts = {
  timeout: MSG.pageSlotsTimeout,
  failed: MSG.pageSlotsFailed,
  refused: MSG.pageSlotsFailed,
};

/**
 * businesses.bySlug with the page's limits (ADR 0019): 5 s per call, FETCH_RETRIES, and
 * OWNER_NOT_FOUND_RETRIES when `viewerOwnsSlug`. Same query key as
 * trpc.businesses.bySlug.useQuery, so invalidating `utils.businesses.bySlug` refreshes it.
 */
function useBusinessBySlug(slug: string, viewerOwnsSlug: boolean) {
  const ownsRef = useRef(viewerOwnsSlug);
  useEffect(() => {
    ownsRef.current = viewerOwnsSlug;
  }, [viewerOwnsSlug]);
  const queryKey = getQueryKey(trpc.businesses.bySlug, { slug }, 'query');
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) =>
      callWithTimeout(
        (s) => trpcClient.businesses.bySlug.query({ slug }, { signal: s }),
        TIME_LIMITS_MS.businessFetch,
        signal,
      ),
    staleTime: 15_000,
    retry: (failureCount, err) =>
      isNotFound(err)
        ? ownsRef.current && failureCount < OWNER_NOT_FOUND_RETRIES
        : FETCH_RETRIES.retry(failureCount, err),
    retryDelay: (failureCount, err) =>
      isNotFound(err) ? OWNER_NOT_FOUND_STEP_MS : FETCH_RETRIES.retryDelay(failureCount),
  });
  return { query, queryKey };
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
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (notFound) {
    return (
      <PageMessage
        title={MSG.pageBusinessNotFound}
        text={`There is no business at /${slug}. Please check the link you were given.`}
        actions={<BackToHome />}
        testId="public-page-not-found"
      />
    );
  }
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
    <Center mih="50vh" p="md">
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader size="lg" />
        <Text c="dimmed">Loading business...</Text>
      </Stack>
    </Center>
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

function LoadedPage({
  data,
  slug,
  refreshError,
  refreshing,
  onRetry,
}: {
  data: PublicData;
  slug: string;
  refreshError: unknown;
  refreshing: boolean;
  onRetry: () => void;
}) {
  const { business, slots } = data;
  const { user } = useAuth();
  const isOwner = user?.id === business.id;
  const isBusinessViewer = user?.role === 'business';
  const canRequest = user?.role === 'customer' && user.isVerified;
  // Business users and page owners see no request or favourite buttons.
  const showRequestButtons = !isOwner && !isBusinessViewer;
  const [signIn, setSignIn] = useState<SignInReason | null>(null);
  const [requesting, setRequesting] = useState<Slot | null>(null);
  const typeLabel = businessTypeLabel(business.businessType);
  useSlotsErrorToast(refreshError);

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
      {isOwner && (
        <Alert color="blue" variant="light" mb="lg" title={MSG.pagePreview} data-testid="owner-preview">
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text size="sm">This is how customers see your booking page. Share its link or QR code.</Text>
            <Button component={Link} to="/dashboard" size="xs">
              {MSG.pageGoToDashboard}
            </Button>
          </Group>
        </Alert>
      )}
      <Stack gap={6} mb="lg">
        <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
          <div style={{ minWidth: 0 }}>
            <Title order={1} fz={{ base: 28, sm: 36 }} style={{ overflowWrap: 'anywhere' }}>
              {business.businessName}
            </Title>
            {typeLabel && (
              <Badge variant="light" size="lg" mt={6} data-testid="business-type">
                {typeLabel}
              </Badge>
            )}
          </div>
          {showRequestButtons && (
            <FavouriteButton
              businessId={business.id}
              onSignInNeeded={user?.role === 'customer' ? undefined : () => setSignIn('favourite')}
            />
          )}
        </Group>
        <Text c="dimmed" maw={720} mt={4} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
          {business.description?.trim() ? business.description : 'No description available.'}
        </Text>
      </Stack>

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Card>
            <Title order={2} fz="lg" mb={4}>
              {isOwner ? 'Your Available Slots' : MSG.pageRequest}
            </Title>
            <Text size="sm" c="dimmed" mb="md">
              {slotsSummary(slots.length, isOwner)}
            </Text>
            {isBusinessViewer && !isOwner && (
              <Text size="sm" mb="md">
                {`${MSG.businessCannotRequest} Log in with a customer account to request one.`}
              </Text>
            )}
            {refreshError !== null && (
              <Alert color="red" variant="light" mb="md" title={MSG.pageSlotsErrorTitle} role="alert">
                <Stack gap="xs" align="flex-start">
                  <Text size="sm">{slotsErrorText(refreshError)}</Text>
                  <Button size="xs" variant="default" onClick={onRetry} loading={refreshing}>
                    {MSG.pageTryAgain}
                  </Button>
                </Stack>
              </Alert>
            )}
            <Stack gap="lg">
              {groupByDate(slots).map(([date, daySlots]) => (
                <section key={date} aria-label={formatDate(date)}>
                  <Text fw={700} size="sm" c="brand.8" mb={8}>
                    {formatDate(date)}
                  </Text>
                  <Stack gap="xs">
                    {daySlots.map((s) => (
                      <Paper key={s.id} withBorder p="sm" px="md" radius="md" data-testid="public-slot">
                        <Group justify="space-between" wrap="wrap" gap="sm">
                          <div style={{ minWidth: 0 }}>
                            <Text fw={700}>{formatTimeRange(s.startTime, s.endTime)}</Text>
                            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                              {s.description}
                            </Text>
                          </div>
                          {showRequestButtons &&
                            (canRequest ? (
                              <Button
                                onClick={() => setRequesting(s)}
                                aria-label={`Request ${s.description}, ${formatDate(s.date)}, ${formatTimeRange(s.startTime, s.endTime)}`}
                              >
                                Request
                              </Button>
                            ) : (
                              <Button variant="light" onClick={() => setSignIn('request')}>
                                Login or Sign Up to Request
                              </Button>
                            ))}
                        </Group>
                      </Paper>
                    ))}
                  </Stack>
                </section>
              ))}
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <div style={{ position: 'sticky', top: 80 }}>
            <BusinessInfoCard business={business} />
          </div>
        </Grid.Col>
      </Grid>

      <SignInDialog
        reason={signIn}
        onClose={() => setSignIn(null)}
        unverified={Boolean(user && user.role === 'customer' && !user.isVerified)}
      />
      <RequestDialog
        slot={requesting}
        slug={slug}
        businessName={business.businessName}
        onClose={() => setRequesting(null)}
        onSignInNeeded={() => {
          setRequesting(null);
          setSignIn('request');
        }}
      />
    </Container>
  );
}

function slotsSummary(count: number, isOwner: boolean): string {
  if (isOwner) {
    return count === 0
      ? 'You have no open slots. Customers will see them here once you add some on your dashboard.'
      : `Customers can request ${count === 1 ? 'this slot' : `these ${count} slots`}; you confirm or decline each request.`;
  }
  if (count === 0) return 'No slots are available right now. Check back soon.';
  return `${count} ${count === 1 ? 'slot' : 'slots'} available. The business confirms each request.`;
}

/** Slots (already sorted by date, then start) grouped by date. */
function groupByDate(slots: Slot[]): Array<[string, Slot[]]> {
  const groups = new Map<string, Slot[]>();
  for (const s of slots) {
    const day = groups.get(s.date);
    if (day) day.push(s);
    else groups.set(s.date, [s]);
  }
  return [...groups];
}

function slotsErrorText(err: unknown): string {
  return noticeFor(err, SLOTS_TEXTS).message;
}

/**
 * A refresh of the page's data (slots included, ADR 0019) failed while the page was shown: toast
 * 'Error loading slots' once per failure.
 */
function useSlotsErrorToast(err: unknown) {
  const shown = useRef<unknown>(null);
  useEffect(() => {
    if (err === null || shown.current === err) return;
    shown.current = err;
    notifications.show({ color: 'red', title: MSG.pageSlotsErrorTitle, message: slotsErrorText(err) });
  }, [err]);
}

function BusinessInfoCard({ business }: { business: PublicData['business'] }) {
  const hours = business.openingHours ?? {};
  const address = business.address?.trim() ?? '';
  return (
    <Card data-testid="business-info">
      <Stack gap="md">
        {address && (
          <InfoItem label="Address">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }} title={address} data-testid="business-address">
              {shortAddress(address)}
            </Text>
            <Anchor
              href={`https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
            >
              Open in Maps
            </Anchor>
          </InfoItem>
        )}
        {business.emailAddress && (
          <InfoItem label="Email">
            <Anchor href={`mailto:${business.emailAddress}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {business.emailAddress}
            </Anchor>
          </InfoItem>
        )}
        {business.phoneNumber && (
          <InfoItem label="Phone">
            <Anchor href={`tel:${business.phoneNumber.replace(/\s+/g, '')}`} size="sm">
              {business.phoneNumber}
            </Anchor>
          </InfoItem>
        )}
        <InfoItem label="Opening hours">
          <Stack gap={2} data-testid="opening-hours">
            {WEEKDAYS.map((day) => {
              const h = hours[day];
              return (
                <Group key={day} justify="space-between" gap="xs" wrap="nowrap" data-testid="opening-hours-day">
                  <Text size="sm">{WEEKDAY_LABEL[day]}</Text>
                  <Text size="sm" c={h ? undefined : 'dimmed'}>
                    {h ? `${formatTime(h.open)} - ${formatTime(h.close)}` : 'Closed'}
                  </Text>
                </Group>
              );
            })}
          </Stack>
        </InfoItem>
      </Stack>
    </Card>
  );
}

function InfoItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" tt="uppercase" fw={700} c="dimmed" mb={4} style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      {children}
    </div>
  );
}

/**
 * Asks a visitor to sign in: Log In, or Create an Account at /register?role=customer. Requesting
 * uses MSG.loginToBook; a signed-in customer who has not confirmed the email is told to verify it.
 */
function SignInDialog({
  reason,
  onClose,
  unverified,
}: {
  reason: SignInReason | null;
  onClose: () => void;
  unverified: boolean;
}) {
  const title = unverified
    ? 'Email verification required'
    : reason === 'favourite'
      ? 'Sign in to save favourites'
      : 'Sign in to request';
  return (
    <Modal opened={reason !== null} onClose={onClose} title={title}>
      <Stack gap="md">
        {unverified ? (
          <>
            <Text size="sm">{MSG.verifyToBook}</Text>
            <Button component={Link} to="/check-email" onClick={onClose}>
              Resend confirmation email
            </Button>
          </>
        ) : (
          <>
            <Text size="sm" fw={600}>
              {reason === 'favourite' ? 'Please log in to save your favourite businesses' : MSG.loginToBook}
            </Text>
            <Text size="sm" c="dimmed">
              New here? Creating a customer account is free.
            </Text>
            <Button component={Link} to="/login">
              Log In
            </Button>
            <Button
              renderRoot={(props) => <Link to="/register" search={{ role: 'customer' }} {...props} />}
              variant="default"
            >
              Create an Account
            </Button>
          </>
        )}
      </Stack>
    </Modal>
  );
}

function RequestDialog({
  slot,
  slug,
  businessName,
  onClose,
  onSignInNeeded,
}: {
  slot: Slot | null;
  slug: string;
  businessName: string;
  onClose: () => void;
  onSignInNeeded: () => void;
}) {
  const utils = trpc.useUtils();
  const request = trpc.bookings.request.useMutation();
  const [notes, setNotes] = useState('');
  const keys = useActionKeys();

  /**
   * One request (this slot, these notes) is one action: its idempotency key is reused when the
   * customer sends it again after a lost answer, so the business gets one request (ADR 0034).
   */
  async function submit() {
    if (!slot) return;
    const trimmed = notes.trim() || undefined;
    const action = `${slot.id}\n${trimmed ?? ''}`;
    try {
      await request.mutateAsync({ slotId: slot.id, notes: trimmed, idempotencyKey: keys.keyFor(action) });
      keys.settle(action);
      notifications.show({
        color: 'green',
        title: MSG.bookingRequested,
        message: `${businessName} will confirm or decline it; we will email you either way.`,
      });
      setNotes('');
      onClose();
    } catch (err) {
      keys.settle(action, err);
      const info = errorInfo(err);
      notifications.show({ color: 'red', ...bookingFailureNotice(info) });
      if (info.code === 'UNAUTHORIZED') onSignInNeeded();
      else if (info.code === 'CONFLICT' || info.code === 'NOT_FOUND') onClose();
    } finally {
      await Promise.all([utils.businesses.bySlug.invalidate({ slug }), utils.bookings.mine.invalidate()]);
    }
  }

  return (
    <Modal opened={slot !== null} onClose={() => !request.isPending && onClose()} title="Request this appointment">
      {slot && (
        <Stack gap="md">
          <Paper withBorder p="sm" radius="md" bg="gray.0">
            <Text fw={700}>{slot.description}</Text>
            <Text size="sm">{formatDate(slot.date)}</Text>
            <Text size="sm" c="dimmed">
              {formatTimeRange(slot.startTime, slot.endTime)} · {businessName}
            </Text>
          </Paper>
          <Textarea
            label="Notes (optional)"
            placeholder="Anything the business should know"
            autosize
            minRows={2}
            maxRows={5}
            maxLength={NOTES_MAX}
            value={notes}
            onChange={(e) => setNotes(e.currentTarget.value)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={request.isPending}>
              Cancel
            </Button>
            <Button onClick={() => void submit()} loading={request.isPending}>
              Send Request
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
