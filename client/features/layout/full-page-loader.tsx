import { Center, Loader, Stack, Text } from '@mantine/core';

/** Centred spinner with a status text (announced to screen readers). */
export function FullPageLoader({ label, fullScreen = false }: { label: string; fullScreen?: boolean }) {
  return (
    <Center mih={fullScreen ? 'calc(100vh - 140px)' : '50vh'} p="md">
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader size="lg" />
        <Text c="dimmed" ta="center">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}
