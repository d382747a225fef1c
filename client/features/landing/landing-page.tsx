import {
  Badge,
  Box,
  Button,
  Card,
  Container,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { TypedPhrase, TypingToggle, useTypewriter } from './typed-phrase';
import { usePageTitle } from '../../lib/use-page-title';

/** The phrases the headline types and cycles. */
const HEADLINE_PHRASES = ['cancelled appointments', 'last-minute gaps', 'quiet afternoons'] as const;

const steps = [
  {
    n: '1',
    title: 'Publish a slot',
    text: 'A cancellation or a quiet afternoon? Add the free time, with a note or a discount, in seconds.',
  },
  {
    n: '2',
    title: 'Share your page',
    text: 'Send your booking link or put your QR code on the counter. Customers see your open slots.',
  },
  {
    n: '3',
    title: 'Confirm the request',
    text: 'Accept or decline each request from one dashboard. You and your customer both get an email.',
  },
];

/** The business types listed to visitors. */
const BUSINESS_TYPES = [
  'MedSpas',
  'Aesthetic clinics',
  'Beauty salons',
  'Hairdressers',
  'Barbers',
  'Nail technicians',
  'Therapists',
  'Personal trainers',
  'Massage therapists',
  'Physiotherapists',
  'Nutritionists',
  'Tattoo artists',
];

const BUSINESS_FEATURES = [
  'Unlimited slots',
  'A dedicated booking page',
  'Email notifications',
  'QR code sharing',
  'One dashboard for slot and booking tracking, separate from your main schedule',
];

const CUSTOMER_FEATURES = [
  'Find slots from the businesses you follow',
  'Bookmark favourites',
  'Quick booking',
  'Email confirmations',
  'Booking history',
];

/** The landing page /. */
export function LandingPage() {
  usePageTitle('Last-minute appointment booking');
  return (
    <Box>
      <Hero />
      <HowItWorks />
      <Audiences />
      <PricingSection />
      <ClosingCall />
    </Box>
  );
}

function Hero() {
  const typing = useTypewriter(HEADLINE_PHRASES);
  return (
    <Box
      style={{
        background: 'linear-gradient(180deg, var(--mantine-color-brand-0) 0%, var(--mantine-color-gray-0) 100%)',
      }}
    >
      <Container size="lg" py={{ base: 40, sm: 88 }}>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48} style={{ alignItems: 'center' }}>
          <Stack gap="lg" justify="center">
            <Badge variant="light" size="lg" w="fit-content">
              Free for businesses during launch
            </Badge>
            <Group gap="xs" wrap="nowrap" align="flex-end">
              <Title order={1} fz={{ base: 32, sm: 48 }} lh={1.1} style={{ letterSpacing: '-0.02em', flex: 1 }}>
                {/* Screen readers get one steady sentence; the typing is decorative. */}
                <VisuallyHidden>Fill your cancelled appointments and last-minute gaps</VisuallyHidden>
                <span aria-hidden="true">
                  Fill your
                  <TypedPhrase text={typing.text} moving={typing.moving} />
                </span>
              </Title>
              {!typing.reduceMotion && <TypingToggle paused={typing.paused} onToggle={typing.toggle} />}
            </Group>
            <Text size="lg" c="dimmed" maw={520}>
              Hair, beauty, massage, wellness and fitness businesses publish short-notice and cancelled slots, share a
              link or a QR code, and confirm the requests that come in.
            </Text>
            <Group gap="sm">
              <Button size="md" component={Link} to="/register">
                Get started free
              </Button>
              <Button size="md" variant="default" component={Link} to="/login">
                Log in
              </Button>
            </Group>
            <Text size="sm" c="dimmed">
              No card needed. Customers always book for free.
            </Text>
          </Stack>
          <SampleSlotCard />
        </SimpleGrid>
      </Container>
    </Box>
  );
}

function HowItWorks() {
  return (
    <Container
      size="lg"
      py={{ base: 40, sm: 64 }}
      id="how-it-works"
      tabIndex={-1}
      data-section-target
      style={{ scrollMarginTop: 72 }}
    >
      <Title order={2} ta="center" mb={6}>
        How it works
      </Title>
      <Text c="dimmed" ta="center" mb="xl" maw={560} mx="auto">
        LastSlot sits beside your usual booking system and fills the gaps it leaves.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        {steps.map((s) => (
          <Card key={s.n}>
            <ThemeIcon size={36} radius="xl" variant="light" mb="sm" aria-hidden="true">
              <Text fw={700}>{s.n}</Text>
            </ThemeIcon>
            <Title order={3} fz="md" mb={4}>
              {s.title}
            </Title>
            <Text size="sm" c="dimmed">
              {s.text}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Container>
  );
}

function Audiences() {
  return (
    <Box bg="white" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
      <Container size="lg" py={{ base: 40, sm: 64 }}>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={40}>
          <Stack gap="sm">
            <Title order={2}>For appointment businesses</Title>
            <Text c="dimmed">
              Anyone whose diary has gaps when a client cancels: publish the slot, share it with the people who already
              know you, and fill it.
            </Text>
            <Group gap={8} mt="xs">
              {BUSINESS_TYPES.map((t) => (
                <Badge key={t} variant="outline" color="gray" size="lg" tt="none" fw={500}>
                  {t}
                </Badge>
              ))}
            </Group>
          </Stack>
          <Stack gap="sm">
            <Title order={2}>For their customers</Title>
            <Text c="dimmed">
              Got a booking link from your salon, barber or trainer? See their short-notice slots and request one in a
              tap. The business confirms, and you get an email.
            </Text>
            <FeatureList items={CUSTOMER_FEATURES} />
          </Stack>
        </SimpleGrid>
      </Container>
    </Box>
  );
}

function FeatureList({ items }: { items: readonly string[] }) {
  return (
    <List
      listStyleType="none"
      spacing={6}
      size="sm"
      mt="xs"
      icon={
        <ThemeIcon size={20} radius="xl" variant="light" aria-hidden="true">
          <svg width="12" height="12" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="3">
            <path d="M5 12l5 5 9-10" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </ThemeIcon>
      }
    >
      {items.map((f) => (
        <List.Item key={f}>{f}</List.Item>
      ))}
    </List>
  );
}

/** Pricing: free at launch, then 9.95 GBP a month for life; customers free. */
function PricingSection() {
  return (
    <Box
      bg="gray.0"
      id="pricing"
      tabIndex={-1}
      data-section-target
      style={{ scrollMarginTop: 72, borderTop: '1px solid var(--mantine-color-gray-2)' }}
    >
      <Container size="lg" py={{ base: 40, sm: 64 }}>
        <Title order={2} ta="center" mb={6}>
          Pricing
        </Title>
        <Text c="dimmed" ta="center" mb="xl" maw={560} mx="auto">
          Simple and honest: free while we launch.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" maw={860} mx="auto">
          <Card withBorder shadow="sm" style={{ borderColor: 'var(--mantine-color-brand-4)' }}>
            <Group justify="space-between" align="flex-start">
              <Title order={3} fz="lg">
                Businesses
              </Title>
              <Badge variant="light">Launch offer</Badge>
            </Group>
            <Group gap={8} align="baseline" mt="xs">
              <Text fz={40} fw={800} lh={1}>
                Free
              </Text>
              <Text c="dimmed">during launch</Text>
            </Group>
            <Text size="sm" mt="sm">
              When the search and discovery map goes live for customers, businesses that joined at launch pay{' '}
              <Text span fw={700}>
                £9.95 a month for life
              </Text>{' '}
              instead of the list price of{' '}
              <Text span td="line-through" c="dimmed">
                £19.95
              </Text>
              . No card needed until then.
            </Text>
            <FeatureList items={BUSINESS_FEATURES} />
            <Button component={Link} to="/register" mt="lg" fullWidth>
              Sign up your business
            </Button>
          </Card>
          <Card withBorder>
            <Title order={3} fz="lg">
              Customers
            </Title>
            <Group gap={8} align="baseline" mt="xs">
              <Text fz={40} fw={800} lh={1}>
                Free
              </Text>
              <Text c="dimmed">always</Text>
            </Group>
            <Text size="sm" mt="sm">
              Sign up with the booking link a business gave you.
            </Text>
            <FeatureList items={CUSTOMER_FEATURES} />
            <Button
              renderRoot={(props) => <Link to="/register" search={{ role: 'customer' }} {...props} />}
              variant="default"
              mt="lg"
              fullWidth
            >
              Sign up as a customer
            </Button>
          </Card>
        </SimpleGrid>
      </Container>
    </Box>
  );
}

function ClosingCall() {
  return (
    <Box bg="brand.9" c="white">
      <Container size="lg" py={{ base: 36, sm: 48 }}>
        <Group justify="space-between" gap="lg">
          <Stack gap={4}>
            <Title order={2} c="white">
              Your next cancellation can still be a booking.
            </Title>
            <Text c="white">Set up your page in a few minutes. Free during launch.</Text>
          </Stack>
          <Button component={Link} to="/register" size="md" variant="white" color="brand.9">
            Create your booking page
          </Button>
        </Group>
      </Container>
    </Box>
  );
}

function SampleSlotCard() {
  return (
    <Card shadow="md" maw={420} w="100%" mx={{ base: 0, md: 'auto' }} aria-hidden="true">
      <Text size="xs" tt="uppercase" fw={700} c="dimmed" mb={6}>
        Available today
      </Text>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div>
          <Text fw={700} size="lg">
            Cut &amp; blow-dry
          </Text>
          <Text size="sm" c="dimmed">
            Studio Nine Hair · 2:30 pm - 3:30 pm
          </Text>
        </div>
        <Badge color="brand" style={{ flexShrink: 0 }}>
          Available
        </Badge>
      </Group>
      <Text size="sm" mt="sm">
        Last-minute cancellation: 20% off
      </Text>
      <Button fullWidth mt="lg" tabIndex={-1}>
        Request
      </Button>
    </Card>
  );
}
