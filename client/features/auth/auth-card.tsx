import { Container, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The centred card used by the sign-in and sign-up screens. */
export function AuthCard({
  title,
  subtitle,
  children,
  size = 440,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  size?: number;
}) {
  return (
    <Container size={size} px={{ base: 'sm', sm: 'md' }} py={{ base: 'lg', sm: 48 }}>
      <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 32 }}>
        <Stack gap={4} mb="lg">
          <Title order={1} fz={{ base: 24, sm: 28 }}>
            {title}
          </Title>
          {subtitle && (
            <Text c="dimmed" size="sm">
              {subtitle}
            </Text>
          )}
        </Stack>
        {children}
      </Paper>
    </Container>
  );
}
