import { Center, Loader, Stack, Text } from '@mantine/core';
import { usePageTitle } from '../../lib/use-page-title';

/**
 * Centred spinner with a status text (announced to screen readers). Names the page `title`
 * ('Loading' by default) only while no page title is shown (a loading title, see usePageTitle).
 * `data-page-loading` keeps the footer below the fold meanwhile (features/layout/layout.css).
 */
export function FullPageLoader({
  label,
  title = 'Loading',
  fullScreen = false,
}: {
  label: string;
  title?: string;
  fullScreen?: boolean;
}) {
  usePageTitle(title, { fallback: true });
  return (
    <Center mih={fullScreen ? 'calc(100vh - 140px)' : '50vh'} p="md" data-page-loading>
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader size="lg" />
        <Text c="dimmed" ta="center">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}
