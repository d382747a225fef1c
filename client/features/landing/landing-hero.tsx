import {
  Badge,
  Box,
  Button,
  Card,
  Container,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { TypedPhrase, TypingToggle, useTypewriter } from './typed-phrase';

/** The phrases the headline types and cycles. */
const HEADLINE_PHRASES = ['cancelled appointments', 'last-minute gaps', 'quiet afternoons'] as const;

/** The headline with its typed phrase, the two calls to action and a sample slot card. */
export function Hero() {
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
                  <TypedPhrase text={typing.text} moving={typing.moving} phrases={HEADLINE_PHRASES} />
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
