import { Badge, Button, Group, Modal, Paper, Stack, Switch, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import {
  closeCookieSettings,
  DEFAULT_PREFERENCES,
  openCookieSettings,
  savePreferences,
  useConsent,
} from './consent-store';

/**
 * The cookie banner and its preferences dialog: 'We use cookies' with 'Customize' and 'Accept All'
 * until a choice is saved; the dialog has Necessary (always on), Analytics and Marketing, with
 * Cancel and 'Save Preferences'.
 */
export function CookieConsent() {
  const { preferences, dialogOpen } = useConsent();
  const [draft, setDraft] = useState(preferences ?? DEFAULT_PREFERENCES);
  useEffect(() => {
    if (dialogOpen) setDraft(preferences ?? DEFAULT_PREFERENCES);
  }, [dialogOpen, preferences]);

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
              <Button variant="default" onClick={openCookieSettings}>
                Customize
              </Button>
              <Button onClick={() => savePreferences({ analytics: true, marketing: true })}>Accept All</Button>
            </Group>
          </Stack>
        </Paper>
      )}
      <Modal
        opened={dialogOpen}
        onClose={closeCookieSettings}
        title="Cookie preferences"
        size="md"
        styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Choose which cookies LastSlot may use. You can change this at any time from Cookie settings at the foot of
            every page.
          </Text>
          <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
            <Switch
              checked
              disabled
              label="Necessary"
              description="Keep you signed in and remember these choices. Always on."
            />
            <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
              Always on
            </Badge>
          </Group>
          <Switch
            checked={draft.analytics}
            onChange={(e) => setDraft((d) => ({ ...d, analytics: e.currentTarget.checked }))}
            label="Analytics"
            description="Help us understand how LastSlot is used."
          />
          <Switch
            checked={draft.marketing}
            onChange={(e) => setDraft((d) => ({ ...d, marketing: e.currentTarget.checked }))}
            label="Marketing"
            description="Let us measure our own campaigns."
          />
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={closeCookieSettings}>
              Cancel
            </Button>
            <Button onClick={() => savePreferences({ analytics: draft.analytics, marketing: draft.marketing })}>
              Save Preferences
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
