import { Alert, Button, Container } from '@mantine/core';
import { errorInfo } from '../../lib/trpc';

/**
 * A page whose data failed to load: a red box titled `title` with the server's message (read with
 * errorInfo) and a Retry button calling `onRetry`.
 */
export function LoadError({ title, error, onRetry }: { title: string; error: unknown; onRetry: () => void }) {
  return (
    <Container size="sm" py="xl" px={{ base: 'sm', sm: 'md' }}>
      <Alert color="red" title={title} role="alert">
        {errorInfo(error).message}
      </Alert>
      <Button mt="md" onClick={onRetry}>
        Retry
      </Button>
    </Container>
  );
}
