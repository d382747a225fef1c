import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { MSG } from '../../shared/messages';
import { requestPasswordResetInput } from '../../shared/schemas/auth';
import { AuthCard } from '../features/auth/auth-card';
import { MailIcon } from '../features/auth/mail-icon';
import { requestResetWithRetry } from '../features/auth/reset-request';
import { trpcClient, type ErrorInfo } from '../lib/trpc';
import { usePageTitle } from '../lib/use-page-title';
import { zodValidate } from '../lib/zod-form';

export const Route = createFileRoute('/forgot-password')({
  component: ForgotPasswordPage,
});

/**
 * /forgot-password (accounts spec §2): asks for a reset link (15 s per attempt, one retry). The confirmation never says whether
 * the address is registered ('If registered, a reset link will be sent to ...').
 */
function ForgotPasswordPage() {
  usePageTitle('Reset your password');
  const [sending, setSending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '' },
    validate: zodValidate(requestPasswordResetInput),
    validateInputOnBlur: true,
  });

  async function onSubmit(values: { email: string }) {
    setError(null);
    setSending(true);
    try {
      // Accounts spec §7, §9: 15 s per attempt, retried once when it fails without an answer.
      const result = await requestResetWithRetry((signal) =>
        trpcClient.auth.requestPasswordReset.mutate({ email: values.email }, { signal }),
      );
      setSentTo(result.email);
    } catch (err) {
      const info = err as ErrorInfo;
      if (info.fieldErrors?.email) form.setFieldError('email', info.fieldErrors.email);
      setError(info);
    } finally {
      setSending(false);
    }
  }

  if (sentTo) {
    return (
      <AuthCard title={MSG.resetSentTitle}>
        <Stack gap="md">
          <MailIcon />
          <Text>
            {MSG.resetSentPrefix}{' '}
            <Text span fw={700} style={{ overflowWrap: 'anywhere' }}>
              {sentTo}
            </Text>
            .
          </Text>
          <Text size="sm" c="dimmed">
            The link is valid for 1 hour. If you cannot see the email, check your spam folder.
          </Text>
          <Button component={Link} to="/login" variant="light">
            Back to login
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Reset your password"
      subtitle="Enter your email and we will send you a link to set a new password."
    >
      <form onSubmit={form.onSubmit(onSubmit)} noValidate>
        <Stack gap="md">
          {error && (
            <Alert color="red" variant="light" title={error.title} role="alert">
              {error.message}
            </Alert>
          )}
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            withAsterisk
            {...form.getInputProps('email')}
          />
          <Button type="submit" fullWidth size="md" loading={sending}>
            Send Reset Link
          </Button>
          <Text size="sm" ta="center" c="dimmed">
            Remembered it?{' '}
            <Anchor component={Link} to="/login" fw={600}>
              Back to login
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
