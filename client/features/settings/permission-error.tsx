import { Center, Stack, Text, Title } from '@mantine/core';
import { MSG } from '../../../shared/messages';
import { BackToHome } from '../layout/back-to-home';

/** 'Permission Error' for a role that is neither business nor customer. */
export function PermissionError() {
  return (
    <Center mih="50vh" p="md">
      <Stack align="center" gap="sm" maw={420} ta="center">
        <Title order={1} fz={26}>
          {MSG.permissionErrorTitle}
        </Title>
        <Text c="dimmed">{MSG.permissionError}</Text>
        <BackToHome variant="filled" />
      </Stack>
    </Center>
  );
}
