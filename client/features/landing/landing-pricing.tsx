import { Badge, Box, Button, Card, Container, Group, SimpleGrid, Text, Title } from '@mantine/core';
import { BUSINESS_FEATURES, CUSTOMER_FEATURES, FeatureList } from './feature-list';
import { Link } from '@tanstack/react-router';

/** Pricing: free at launch, then 9.95 GBP a month for life; customers free. */
export function PricingSection() {
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
