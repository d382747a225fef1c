import { Badge, Box, Button, Card, Container, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { createFileRoute, Link } from '@tanstack/react-router';
import { usePageTitle } from '../lib/use-page-title';

export const Route = createFileRoute('/')({
  component: LandingPage,
});

const steps = [
  { n: '1', title: 'Publish a slot', text: 'A cancellation or a quiet afternoon? Add the free time in seconds.' },
  { n: '2', title: 'Share your page', text: 'Customers open your booking link or scan your QR code.' },
  { n: '3', title: 'Confirm the request', text: 'Accept or decline each request. Both sides get an email.' },
];

function LandingPage() {
  usePageTitle(null);
  return (
    <Box>
      <Box
        style={{
          background: 'linear-gradient(180deg, var(--mantine-color-brand-0) 0%, var(--mantine-color-gray-0) 100%)',
        }}
      >
        <Container size="lg" py={{ base: 48, sm: 88 }}>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48} style={{ alignItems: 'center' }}>
            <Stack gap="lg" justify="center">
              <Badge variant="light" size="lg" w="fit-content">
                Free for businesses during launch
              </Badge>
              <Title order={1} fz={{ base: 34, sm: 48 }} lh={1.1} style={{ letterSpacing: '-0.02em' }}>
                Fill your last-minute appointment slots
              </Title>
              <Text size="lg" c="dimmed" maw={520}>
                Hair, beauty, massage, wellness and fitness businesses publish short-notice and cancelled slots;
                customers request them from one simple booking page.
              </Text>
              <Group gap="sm">
                <Button size="md" component={Link} to="/register">
                  Get started free
                </Button>
                <Button size="md" variant="default" component={Link} to="/login">
                  Log in
                </Button>
              </Group>
            </Stack>
            <SampleSlotCard />
          </SimpleGrid>
        </Container>
      </Box>

      <Container size="lg" py={{ base: 40, sm: 64 }} id="how-it-works" style={{ scrollMarginTop: 72 }}>
        <Title order={2} ta="center" mb="xl">
          How it works
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
          {steps.map((s) => (
            <Card key={s.n}>
              <ThemeIcon size={36} radius="xl" variant="light" mb="sm">
                <Text fw={700}>{s.n}</Text>
              </ThemeIcon>
              <Text fw={600} mb={4}>
                {s.title}
              </Text>
              <Text size="sm" c="dimmed">
                {s.text}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      </Container>
      <PricingSection />
    </Box>
  );
}

/** Pricing (accounts spec §1): free at launch, then 9.95 GBP a month for life; customers free. */
function PricingSection() {
  return (
    <Box bg="gray.0" id="pricing" style={{ scrollMarginTop: 72 }}>
      <Container size="lg" py={{ base: 40, sm: 64 }}>
        <Title order={2} ta="center" mb="xl">
          Pricing
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" maw={820} mx="auto">
          <Card withBorder>
            <Text fw={700} size="lg">
              Businesses
            </Text>
            <Group gap={8} align="baseline" mt="xs">
              <Text fz={36} fw={800} lh={1}>
                Free
              </Text>
              <Text c="dimmed">during launch</Text>
            </Group>
            <Text size="sm" c="dimmed" mt="sm">
              When the search and discovery map goes live for customers, early businesses pay £9.95 a month for life,
              half the £19.95 list price. No card needed until then.
            </Text>
            <Text size="sm" mt="sm">
              Unlimited slots · a dedicated booking page · email notifications · QR code sharing · one dashboard for
              slots and bookings
            </Text>
            <Button component={Link} to="/register" mt="lg">
              Sign up your business
            </Button>
          </Card>
          <Card withBorder>
            <Text fw={700} size="lg">
              Customers
            </Text>
            <Group gap={8} align="baseline" mt="xs">
              <Text fz={36} fw={800} lh={1}>
                Free
              </Text>
              <Text c="dimmed">always</Text>
            </Group>
            <Text size="sm" c="dimmed" mt="sm">
              Find slots, bookmark favourites, book quickly, get email confirmations and keep your booking history.
            </Text>
            <Button
              renderRoot={(props) => <Link to="/register" search={{ role: 'customer' }} {...props} />}
              variant="default"
              mt="lg"
            >
              Sign up as a customer
            </Button>
          </Card>
        </SimpleGrid>
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
      <Button fullWidth mt="lg" tabIndex={-1}>
        Request
      </Button>
    </Card>
  );
}
