import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Switch.css';
import { Badge, Button, Group, Modal, Stack, Switch, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { closeCookieSettings, DEFAULT_PREFERENCES, savePreferences, useConsent } from './consent-store';

/**
 * The cookie preferences dialog: Necessary (always on), Analytics and Marketing, with Cancel and
 * 'Save Preferences'. Opened from the banner's 'Customize' and the footer's 'Cookie settings';
 * loaded apart from the first-load bundle (./cookie-consent.tsx).
 */
export function CookieSettingsDialog({ opened }: { opened: boolean }) {
  const { preferences } = useConsent();
  const [draft, setDraft] = useState(preferences ?? DEFAULT_PREFERENCES);
  useEffect(() => {
    if (opened) setDraft(preferences ?? DEFAULT_PREFERENCES);
  }, [opened, preferences]);

  return (
    <Modal
      opened={opened}
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
  );
}
