import { Center, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../../lib/use-page-title';
import { BackToHome } from './back-to-home';

/** The 404 page's name in its title. */
export const NOT_FOUND_TITLE = 'Page not found';

/** 404 page: 'Oops! Page not found' with a link home. */
export function NotFound() {
  usePageTitle(NOT_FOUND_TITLE);
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="md" maw={420}>
        <Text fz={64} fw={800} c="brand.8" lh={1}>
          404
        </Text>
        <Title order={1} ta="center" fz={{ base: 26, sm: 32 }}>
          Oops! Page not found
        </Title>
        <Text c="dimmed" ta="center">
          The page you are looking for does not exist or has moved.
        </Text>
        <BackToHome variant="filled" />
      </Stack>
    </Center>
  );
}
