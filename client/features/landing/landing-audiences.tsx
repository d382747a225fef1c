import { Badge, Box, Button, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { CUSTOMER_FEATURES, FeatureList } from './feature-list';

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

/** Who it is for: the kinds of business it suits and what customers get. */
export function Audiences() {
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
            <Group mt="xs">
              <Button component={Link} to="/discover" variant="light">
                Discover slots near you
              </Button>
            </Group>
          </Stack>
        </SimpleGrid>
      </Container>
    </Box>
  );
}
