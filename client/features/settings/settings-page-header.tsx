import { Text, Title } from '@mantine/core';

/** The settings page's heading and one-line summary. */
export function SettingsPageHeader({ subtitle }: { subtitle: string }) {
  return (
    <div>
      <Title order={1} fz={{ base: 26, sm: 30 }}>
        Settings
      </Title>
      <Text c="dimmed" size="sm">
        {subtitle}
      </Text>
    </div>
  );
}
