import { Badge, Box, Button, Card, Container, Group, SimpleGrid, Text, Title } from '@mantine/core';
import { BUSINESS_FEATURES, CUSTOMER_FEATURES, FeatureList } from './feature-list';
import { Link } from '@tanstack/react-router';
import { PRICES } from '../../../shared/pricing';
import { trpc } from '../../lib/trpc';

/**
 * Pricing, as billing stands (billing.offer, docs/decisions/0100): during the launch period free, then
 * £9.95 a month for life for launch businesses; once billing is on, the list price with its free trial
 * and the launch businesses' price for life. Customers are always free.
 */
export function PricingSection() {
  const { data: offer } = trpc.billing.offer.useQuery(undefined, { staleTime: Infinity });
  const billingOn = offer?.billingOn === true;
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
          {billingOn
            ? 'Simple and honest: one monthly price, cancel any time.'
            : 'Simple and honest: free while we launch.'}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" maw={860} mx="auto">
          <Card withBorder shadow="sm" style={{ borderColor: 'var(--mantine-color-brand-4)' }}>
            <Group justify="space-between" align="flex-start">
              <Title order={3} fz="lg">
                Businesses
              </Title>
              <Badge variant="light">{billingOn ? 'Monthly' : 'Launch offer'}</Badge>
            </Group>
            {billingOn ? (
              <>
                <Group gap={8} align="baseline" mt="xs">
                  <Text fz={40} fw={800} lh={1}>
                    {PRICES.list.label}
                  </Text>
                  <Text c="dimmed">a month</Text>
                </Group>
                <Text size="sm" mt="sm" data-testid="pricing-terms">
                  {offer.trialDays > 0 &&
                    `Start with a ${offer.trialDays}-day free trial; no card needed until it ends. `}
                  <Text span fw={700}>
                    {PRICES.earlyAdopter.label} for life
                  </Text>{' '}
                  for businesses that joined at launch.
                </Text>
              </>
            ) : (
              <>
                <Group gap={8} align="baseline" mt="xs">
                  <Text fz={40} fw={800} lh={1}>
                    Free
                  </Text>
                  <Text c="dimmed">during launch</Text>
                </Group>
                <Text size="sm" mt="sm" data-testid="pricing-terms">
                  When the search and discovery map goes live for customers, businesses that joined at launch pay{' '}
                  <Text span fw={700}>
                    {PRICES.earlyAdopter.label} a month for life
                  </Text>{' '}
                  instead of the list price of{' '}
                  <Text span td="line-through" c="dimmed">
                    {PRICES.list.label}
                  </Text>
                  . No card needed until then.
                </Text>
              </>
            )}
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
