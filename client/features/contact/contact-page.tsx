/**
 * 'Get in Touch' (ADR 0016): subject and message, validated with the server's schema; 'Message
 * Sent!' on success, 'Could not send your message: ...' when the server refused it, 'Failed to send
 * message: ...' when it could not be reached or failed.
 */
import '@mantine/core/styles/Input.css';
import { Button, Card, Container, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { getRouteApi } from '@tanstack/react-router';
import { MSG } from '../../../shared/messages';
import { sendContactMessageInput } from '../../../shared/schemas/contact';
import { CONTACT_MESSAGE_MAX, CONTACT_SUBJECT_MAX } from '../../../shared/schemas/limits';
import { noticeFor } from '../../lib/requests';
import { trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';
import { useAuth } from '../auth/use-auth';

const route = getRouteApi('/contact');

interface ContactValues {
  subject: string;
  message: string;
}

/** The toast text for a failed send: a refusal 'Could not send…', else 'Failed to send…'. */
export function contactFailureText(err: unknown): string {
  const notice = noticeFor(err);
  if (notice.code === 'UNAUTHORIZED') return MSG.contactLoginRequired;
  return `${notice.kind === 'refused' ? MSG.contactCouldNotSend : MSG.contactFailed} ${notice.message}`;
}

/** The contact form of a signed-in user whose replies go to `email`. */
export function ContactPage() {
  const { user: fromGuard } = route.useRouteContext();
  const { user: live } = useAuth();
  const email = (live ?? fromGuard).email;
  usePageTitle(MSG.getInTouch);
  const send = trpc.contact.send.useMutation();
  const form = useForm<ContactValues>({
    initialValues: { subject: '', message: '' },
    validate: schemaResolver(sendContactMessageInput, { sync: true }),
  });

  async function onSubmit(values: ContactValues) {
    try {
      await send.mutateAsync(values);
    } catch (err) {
      const { fieldErrors } = noticeFor(err);
      for (const field of ['subject', 'message'] as const) {
        const message = fieldErrors?.[field];
        if (message) form.setFieldError(field, message);
      }
      notifications.show({ color: 'red', title: 'Error', message: contactFailureText(err) });
      return;
    }
    form.reset();
    notifications.show({ color: 'green', title: MSG.contactSentTitle, message: MSG.contactSent });
  }

  return (
    <Container size="sm" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="lg">
        <div>
          <Title order={1} fz={{ base: 24, sm: 30 }}>
            {MSG.getInTouch}
          </Title>
          <Text c="dimmed" size="sm">
            A question, an idea or a problem? Send us a message and we will reply by email.
          </Text>
        </div>
        <Card withBorder padding="lg">
          <form onSubmit={form.onSubmit((v) => void onSubmit(v))} noValidate>
            <Stack gap="md">
              <TextInput
                label="Subject"
                placeholder="What is it about?"
                maxLength={CONTACT_SUBJECT_MAX}
                withAsterisk
                {...form.getInputProps('subject')}
              />
              <Textarea
                label="Message"
                placeholder="Tell us more..."
                autosize
                minRows={6}
                maxRows={16}
                maxLength={CONTACT_MESSAGE_MAX}
                withAsterisk
                description={`${form.values.message.length} / ${CONTACT_MESSAGE_MAX} characters`}
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                {...form.getInputProps('message')}
              />
              <Text size="sm" c="dimmed">
                We will reply to{' '}
                <Text span fw={600} c="dark" style={{ overflowWrap: 'anywhere' }}>
                  {email}
                </Text>
                .
              </Text>
              <Button
                type="submit"
                loading={send.isPending}
                w={{ base: '100%', sm: 'auto' }}
                style={{ alignSelf: 'flex-start' }}
              >
                Send Message
              </Button>
            </Stack>
          </form>
        </Card>
      </Stack>
    </Container>
  );
}
