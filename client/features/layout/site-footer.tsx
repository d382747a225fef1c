import { Anchor, Box, Container, Group, Stack, Text } from '@mantine/core';
import { openCookieSettings } from '../consent/consent-store';
import { LegalLinks } from '../legal/legal-links';
import { OPERATOR } from '../legal/operator';
import './layout.css';
import { LogoMark } from './logo';

/**
 * The footer of every page: the Terms & Conditions and Privacy Policy dialogs, 'Cookie settings'
 * (reopens the consent dialog, so a choice can be changed or withdrawn), the support address and
 * the © line. It sits outside <main>, beside the desktop sidebar like the page itself.
 */
export function SiteFooter() {
  return (
    <Box
      component="footer"
      py="lg"
      bg="white"
      style={{
        borderTop: '1px solid var(--mantine-color-gray-2)',
        paddingInlineStart: 'var(--app-shell-navbar-offset, 0rem)',
      }}
    >
      <Container size="lg">
        <Group justify="space-between" align="center" gap="md">
          <Stack gap={2}>
            <Group gap={8} wrap="nowrap">
              <LogoMark size={22} />
              <Text fw={700} size="sm">
                LastSlot
              </Text>
            </Group>
            <Text size="xs" c="dimmed">
              © {new Date().getFullYear()} LastSlot · Last-minute appointments, booked in a tap.
            </Text>
          </Stack>
          <div className="footer-links">
            <LegalLinks onCookieSettings={openCookieSettings} />
            <Text size="xs" c="dimmed">
              Help:{' '}
              <Anchor href={`mailto:${OPERATOR.supportEmail}`} size="xs" c="dimmed" underline="always">
                {OPERATOR.supportEmail}
              </Anchor>
            </Text>
          </div>
        </Group>
      </Container>
    </Box>
  );
}

/** 'Skip to content': the first stop of the Tab key, shown only while focused; focuses <main>. */
export function SkipLink({ targetId }: { targetId: string }) {
  return (
    <a
      href={`#${targetId}`}
      className="skip-link"
      onClick={(e) => {
        const target = document.getElementById(targetId);
        if (!target) return;
        e.preventDefault();
        target.focus();
        target.scrollIntoView({ block: 'start' });
      }}
    >
      Skip to content
    </a>
  );
}
