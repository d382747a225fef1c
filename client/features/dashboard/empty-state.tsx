import { Stack, Text } from '@mantine/core';

export function EmptyState({ text, hint }: { text: string; hint?: string }) {
  return (
    <Stack
      align="center"
      gap={4}
      py="xl"
      px="md"
      style={{ border: '1px dashed var(--mantine-color-gray-3)', borderRadius: 'var(--mantine-radius-md)' }}
    >
      <Text fw={600} c="gray.7" ta="center">
        {text}
      </Text>
      {hint && (
        <Text size="sm" c="dimmed" ta="center">
          {hint}
        </Text>
      )}
    </Stack>
  );
}
