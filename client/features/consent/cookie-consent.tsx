import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { lazyDialog } from '../../lib/lazy-dialog';
import { openCookieSettings, savePreferences, useConsent } from './consent-store';

// The preferences dialog loads when it opens or 'Customize' is pointed at (ADR 0055).
const CookieSettingsDialog = lazyDialog(
  () => import('./cookie-settings-dialog').then((m) => m.CookieSettingsDialog),
  (p) => p.opened,
);

/**
 * The cookie banner and its preferences dialog: 'We use cookies' with 'Customize' and 'Accept All'
 * until a choice is saved; the dialog has Necessary (always on), Analytics and Marketing, with
 * Cancel and 'Save Preferences'.
 */
export function CookieConsent() {
  const { preferences, dialogOpen } = useConsent();

  return (
    <>
      {!preferences && !dialogOpen && (
        <Paper
          role="region"
          aria-label="Cookie consent"
          shadow="lg"
          withBorder
          p="md"
          radius="lg"
          style={{
            position: 'fixed',
            left: 12,
            right: 12,
            bottom: 12,
            maxWidth: 560,
            marginInline: 'auto',
            zIndex: 150,
          }}
        >
          <Stack gap="sm">
            <div>
              <Text fw={700}>We use cookies</Text>
              <Text size="sm" c="dimmed">
                Necessary cookies keep you signed in. With your permission we would also use analytics and marketing
                cookies; none are set until you choose.
              </Text>
            </div>
            <Group justify="flex-end" gap="sm">
              <Button
                variant="default"
                onClick={openCookieSettings}
                onPointerEnter={CookieSettingsDialog.preload}
                onFocus={CookieSettingsDialog.preload}
              >
                Customize
              </Button>
              <Button onClick={() => savePreferences({ analytics: true, marketing: true })}>Accept All</Button>
            </Group>
          </Stack>
        </Paper>
      )}
      <CookieSettingsDialog opened={dialogOpen} />
    </>
  );
}
