import '@mantine/core/styles/Input.css';
import { Alert, Button, CopyButton, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { MSG } from '../../../shared/messages';
import { trpc } from '../../lib/trpc';
import { AnchoredCard, CardHeading } from './card-heading';

/**
 * Calendar feed (docs/decisions/0052): a private subscription URL that puts every confirmed booking
 * into the business's own calendar. The URL is shown once, when created or regenerated (only its
 * hash is stored); regenerating stops the old URL at once. Anchor: /settings#calendar-feed.
 */
export function CalendarFeedCard() {
  const utils = trpc.useUtils();
  const feed = trpc.settings.calendarFeed.useQuery(undefined, { refetchOnWindowFocus: false });
  const regenerate = trpc.settings.regenerateCalendarFeed.useMutation();
  const [url, setUrl] = useState<string | null>(null);
  const active = Boolean(url) || Boolean(feed.data?.active);

  async function create() {
    try {
      const created = await regenerate.mutateAsync();
      setUrl(created.url);
      await utils.settings.calendarFeed.invalidate();
    } catch {
      notifications.show({ color: 'red', title: 'Calendar feed', message: MSG.generic });
    }
  }

  return (
    <AnchoredCard id="calendar-feed" headingId="calendar-feed-heading">
      <Stack gap="md">
        <CardHeading id="calendar-feed-heading" title="Calendar Feed">
          Subscribe to this private link in your main calendar and every confirmed booking appears there on its own.
        </CardHeading>
        {url ? (
          <>
            <Group gap="xs" align="flex-end" wrap="nowrap">
              {/* A textarea, so the whole URL wraps into view on a phone: it is shown only once. */}
              <Textarea
                label="Your calendar feed URL"
                value={url}
                readOnly
                autosize
                minRows={1}
                spellCheck={false}
                onFocus={(e) => e.currentTarget.select()}
                style={{ flex: 1, minWidth: 0 }}
                styles={{ input: { wordBreak: 'break-all', fontFamily: 'var(--mantine-font-family-monospace)' } }}
              />
              <CopyButton value={url}>
                {({ copied, copy }) => (
                  <Button
                    variant={copied ? 'light' : 'filled'}
                    onClick={() => {
                      copy();
                      notifications.show({
                        title: 'Link Copied',
                        message: 'The calendar feed URL is on your clipboard.',
                      });
                    }}
                  >
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Alert color="yellow" variant="light">
              Copy it now: for your security we show this link only once. Anyone with the link can see your bookings.
            </Alert>
          </>
        ) : active ? (
          <Text size="sm">
            Your calendar feed is active
            {feed.data?.createdAt
              ? ` (link created ${new Date(feed.data.createdAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' })})`
              : ''}
            . We show the link only when it is created: if you no longer have it, regenerate it.
          </Text>
        ) : null}
        <List size="sm" spacing={4}>
          <List.Item>
            <b>Google Calendar:</b> Other calendars (+) → From URL, paste the link.
          </List.Item>
          <List.Item>
            <b>Apple Calendar:</b> File → New Calendar Subscription, paste the link.
          </List.Item>
          <List.Item>
            <b>Outlook:</b> Add calendar → Subscribe from web, paste the link.
          </List.Item>
        </List>
        <Group>
          <Button variant={active ? 'default' : 'filled'} onClick={() => void create()} loading={regenerate.isPending}>
            {active ? 'Regenerate link' : 'Create calendar link'}
          </Button>
          {active && (
            <Text size="xs" c="dimmed">
              Regenerating stops the old link at once.
            </Text>
          )}
        </Group>
      </Stack>
    </AnchoredCard>
  );
}
