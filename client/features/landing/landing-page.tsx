import { Box, Button, Card, Container, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { LANDING_PAGE_NAME } from '../../../shared/format';
import { usePageTitle } from '../../lib/use-page-title';
import { Audiences } from './landing-audiences';
import { Hero } from './landing-hero';
import { PricingSection } from './landing-pricing';

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

/** The landing page /. */
export function LandingPage() {
  usePageTitle(LANDING_PAGE_NAME);
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
