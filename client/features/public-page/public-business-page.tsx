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
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { businessTypeLabel } from '../../../shared/categories';
import { formatDate, formatTime, formatTimeRange } from '../../../shared/format';
import { MSG } from '../../../shared/messages';
import { WEEKDAY_LABEL, WEEKDAYS } from '../../../shared/opening-hours';
import { errorInfo, trpc, type RouterOutputs } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';
import { FavouriteButton } from '../favourites/favourite-button';
import { useAuth } from '../auth/use-auth';

type PublicData = RouterOutputs['businesses']['bySlug'];
type Slot = PublicData['slots'][number];

/** The public business page (dashboards spec §2 "/{slug}"). */
export function PublicBusinessPage({ slug }: { slug: string }) {
  const query = trpc.businesses.bySlug.useQuery({ slug }, { staleTime: 15_000 });
  const notFound = query.isError && errorInfo(query.error).code === 'NOT_FOUND';
  usePageTitle(query.data?.business.businessName ?? (notFound ? 'Business Not Found' : null));

  if (query.isPending) {
    return (
      <Center mih="50vh" role="status" aria-label="Loading business">
        <Loader size="lg" />
      </Center>
    );
  }
  if (query.isError) {
    return (
      <Container size="sm" py={64}>
        <Stack align="center" gap="sm">
          <Title order={1} fz={28} ta="center">
            {notFound ? 'Business Not Found' : 'Error Loading Business'}
          </Title>
          <Text c="dimmed" ta="center">
            {notFound
              ? 'We could not find a business at this address. Check the link you were given.'
              : errorInfo(query.error).message}
          </Text>
          {notFound ? (
            <Button component={Link} to="/" variant="default">
              Back to Home
            </Button>
          ) : (
            <Button onClick={() => void query.refetch()}>Try Again</Button>
          )}
        </Stack>
      </Container>
    );
  }
  return <LoadedPage data={query.data} slug={slug} />;
}

function LoadedPage({ data, slug }: { data: PublicData; slug: string }) {
  const { business, slots } = data;
  const { user } = useAuth();
  const isOwner = user?.id === business.id;
  const canRequest = user?.role === 'customer' && user.isVerified;
  const showRequestButtons = !isOwner && user?.role !== 'business';
  const [signInOpen, setSignInOpen] = useState(false);
  const [requesting, setRequesting] = useState<Slot | null>(null);
  const typeLabel = businessTypeLabel(business.businessType);

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
      {isOwner && (
        <Alert color="blue" variant="light" mb="lg">
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text size="sm">This is how customers see your booking page.</Text>
            <Button component={Link} to="/dashboard" size="xs" variant="light">
              Go to Dashboard
            </Button>
          </Group>
        </Alert>
      )}
      <Stack gap={6} mb="lg">
        {typeLabel && (
          <Badge variant="light" size="lg" w="fit-content">
            {typeLabel}
          </Badge>
        )}
        <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
          <Title order={1} fz={{ base: 28, sm: 36 }} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {business.businessName}
          </Title>
          {/* Dashboards spec §2, §6: no favourite button for businesses (owners included). */}
          {user?.role !== 'business' && (
            <FavouriteButton
              businessId={business.id}
              onSignInNeeded={user?.role === 'customer' ? undefined : () => setSignInOpen(true)}
            />
          )}
        </Group>
        <Text c="dimmed" maw={720} style={{ overflowWrap: 'anywhere' }}>
          {business.description?.trim() ? business.description : 'No description available.'}
        </Text>
      </Stack>

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Card>
            <Title order={2} fz="lg" mb={4}>
              {isOwner ? 'Your Business Page Preview' : 'Request an Appointment'}
            </Title>
            <Text size="sm" c="dimmed" mb="md">
              {slots.length === 0
                ? 'No slots are available right now. Check back soon.'
                : `${slots.length} ${slots.length === 1 ? 'slot' : 'slots'} available. The business confirms each request.`}
            </Text>
            <Stack gap="sm">
              {slots.map((s) => (
                <Paper key={s.id} withBorder p="md" radius="md" data-testid="public-slot">
                  <Group justify="space-between" wrap="wrap" gap="sm">
                    <div style={{ minWidth: 0 }}>
                      <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
                        {s.description}
                      </Text>
                      <Text size="sm">{formatDate(s.date)}</Text>
                      <Text size="sm" c="dimmed">
                        {formatTimeRange(s.startTime, s.endTime)}
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
                        <Button variant="light" onClick={() => setSignInOpen(true)}>
                          Login or Sign Up to Request
                        </Button>
                      ))}
                  </Group>
                </Paper>
              ))}
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <BusinessInfoCard business={business} />
        </Grid.Col>
      </Grid>

      <SignInDialog
        opened={signInOpen}
        onClose={() => setSignInOpen(false)}
        unverified={Boolean(user && !user.isVerified)}
      />
      <RequestDialog
        slot={requesting}
        slug={slug}
        businessName={business.businessName}
        onClose={() => setRequesting(null)}
      />
    </Container>
  );
}

function BusinessInfoCard({ business }: { business: PublicData['business'] }) {
  const hours = business.openingHours ?? {};
  return (
    <Card>
      <Stack gap="md">
        <InfoItem label="Address">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {business.address}
          </Text>
          {business.address && (
            <Anchor
              href={`https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(business.address)}`}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
            >
              Open in Maps
            </Anchor>
          )}
        </InfoItem>
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
          <Stack gap={2}>
            {WEEKDAYS.map((day) => {
              const h = hours[day];
              return (
                <Group key={day} justify="space-between" gap="xs" wrap="nowrap">
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

function InfoItem({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" tt="uppercase" fw={700} c="dimmed" mb={4} style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      {children}
    </div>
  );
}

function SignInDialog({ opened, onClose, unverified }: { opened: boolean; onClose: () => void; unverified: boolean }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Sign in to request">
      <Stack gap="md">
        <Text size="sm">
          {unverified ? MSG.verifyToBook : 'Log in or create a free customer account to request this appointment.'}
        </Text>
        {unverified ? (
          <Button component={Link} to="/check-email" onClick={onClose}>
            Resend confirmation email
          </Button>
        ) : (
          <>
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
}: {
  slot: Slot | null;
  slug: string;
  businessName: string;
  onClose: () => void;
}) {
  const utils = trpc.useUtils();
  const request = trpc.bookings.request.useMutation();
  const [notes, setNotes] = useState('');

  async function submit() {
    if (!slot) return;
    try {
      await request.mutateAsync({ slotId: slot.id, notes: notes.trim() || undefined });
      notifications.show({
        color: 'green',
        title: MSG.bookingRequested,
        message: `${businessName} will confirm or decline it; we will email you either way.`,
      });
      setNotes('');
      onClose();
    } catch (err) {
      const info = errorInfo(err);
      notifications.show({ color: 'red', title: MSG.bookingFailedTitle, message: info.message || MSG.bookingFailed });
      if (info.code === 'CONFLICT' || info.code === 'NOT_FOUND') onClose();
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
            maxLength={500}
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
