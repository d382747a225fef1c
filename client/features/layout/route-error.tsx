import { Alert, Button, Center, Group, Stack } from '@mantine/core';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { errorInfo } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';
import { BackToHome } from './back-to-home';

/** Fallback when a route's guard or loader fails (e.g. the server cannot be reached). */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const info = errorInfo(error);
  usePageTitle(info.title ?? 'Something went wrong');
  return (
    <Center mih="50vh" p="md">
      <Stack maw={480} w="100%">
        <Alert color="red" title={info.title ?? 'Something went wrong'} role="alert">
          {info.message}
        </Alert>
        <Group justify="center">
          <Button
            onClick={() => {
              reset();
              void router.invalidate();
            }}
          >
            Try Again
          </Button>
          <BackToHome />
        </Group>
      </Stack>
    </Center>
  );
}
