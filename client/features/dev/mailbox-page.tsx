/** The /dev/mailbox page: emails the app would send, kept locally (docs/decisions/0005). */
import { Alert, Anchor, Badge, Box, Center, Container, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { errorInfo, trpc, type RouterOutputs } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';

type Message = RouterOutputs['dev']['mailbox'][number];

/**
 * Development mailbox: the outbox, newest first, refreshed every 3 s. Loaded only by the
 * /dev/mailbox route of a build that includes it (see vite.config.ts).
 */
export default function MailboxPage() {
  usePageTitle('Mailbox');
  const mailbox = trpc.dev.mailbox.useQuery(undefined, { refetchInterval: 3000, staleTime: 0 });

  return (
    <Container size="md" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="lg">
        <div>
          <Title order={1} fz={{ base: 24, sm: 30 }}>
            Mailbox
          </Title>
          <Text c="dimmed" size="sm">
            Emails the app would send, kept locally because no email provider is configured. Refreshes every 3 seconds.
          </Text>
        </div>
        {mailbox.isPending ? (
          <Center py="xl">
            <Loader />
          </Center>
        ) : mailbox.isError ? (
          <Alert color="red" title="Mailbox unavailable">
            {errorInfo(mailbox.error).code === 'NOT_FOUND'
              ? 'The mailbox is only available in development.'
              : errorInfo(mailbox.error).message}
          </Alert>
        ) : mailbox.data.length === 0 ? (
          <Text c="dimmed">No emails yet.</Text>
        ) : (
          mailbox.data.map((m) => <MailItem key={m.id} message={m} />)
        )}
      </Stack>
    </Container>
  );
}

/** The email's body content with links opening in this tab. */
function useEmailBody(html: string | null) {
  return useMemo(() => {
    if (!html) return null;
    const doc = new DOMParser().parseFromString(html, 'text/html');
    doc.querySelectorAll('script, iframe, object, embed, form').forEach((el) => el.remove());
    doc.querySelectorAll('a').forEach((a) => {
      a.setAttribute('target', '_self');
      a.removeAttribute('rel');
    });
    return { __html: doc.body.innerHTML, style: doc.body.getAttribute('style') ?? '' };
  }, [html]);
}

/** A data: URL of a text attachment, for its download link. */
function attachmentHref(a: { contentType: string; content: string }): string {
  return `data:${a.contentType.split(';')[0]};charset=utf-8,${encodeURIComponent(a.content)}`;
}

function MailItem({ message: m }: { message: Message }) {
  const body = useEmailBody(m.html);
  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="lg" component="article" aria-label={m.subject}>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap" mb="sm">
        <div style={{ minWidth: 0 }}>
          <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
            {m.subject}
          </Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            To: {m.to}
          </Text>
        </div>
        <Group gap={6}>
          {m.kind && (
            <Badge variant="light" color="teal">
              {m.kind.replaceAll('_', ' ')}
            </Badge>
          )}
          <Badge variant="light" color="gray">
            {m.status}
          </Badge>
          <Text size="xs" c="dimmed">
            {new Date(m.createdAt).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}
          </Text>
        </Group>
      </Group>
      {new Date(m.sendAfter).getTime() > Date.now() && (
        <Text size="sm" c="dimmed" mb="xs">
          Scheduled for {new Date(m.sendAfter).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}
        </Text>
      )}
      {m.attachments && m.attachments.length > 0 && (
        <Group gap="xs" mb="xs">
          <Text size="sm">Attachments:</Text>
          {m.attachments.map((a) => (
            <Anchor key={a.filename} size="sm" href={attachmentHref(a)} download={a.filename}>
              {a.filename}
            </Anchor>
          ))}
        </Group>
      )}
      <Box
        className="mail-body"
        p="sm"
        style={{
          border: '1px solid var(--mantine-color-gray-2)',
          borderRadius: 'var(--mantine-radius-md)',
          background: '#fff',
        }}
      >
        {body ? (
          <div dangerouslySetInnerHTML={{ __html: body.__html }} />
        ) : (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {m.text}
          </Text>
        )}
      </Box>
    </Paper>
  );
}
