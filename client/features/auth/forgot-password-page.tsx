import { Anchor, Button, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { MSG } from '../../../shared/messages';
import { requestPasswordResetInput } from '../../../shared/schemas/auth';
import { AuthCard } from './auth-card';
import { EmailField, FormErrorAlert } from './form-parts';
import { MailIcon } from './mail-icon';
import { noticeFor, retryAfterFailures, TIME_LIMITS_MS, useTimedMutation } from '../../lib/requests';
import { trpcClient, type ErrorInfo } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';

/** An attempt that failed without an answer (or with a 5xx) is retried once, at once. */
const RESET_RETRY = retryAfterFailures([0]);

/**
 * /forgot-password: asks for a reset link (15 s per attempt, one retry). The confirmation never
 * says whether the address is registered ('If registered, a reset link will be sent to ...').
 */
export function ForgotPasswordPage() {
  usePageTitle('Reset your password');
  const send = useTimedMutation(trpcClient.auth.requestPasswordReset, TIME_LIMITS_MS.resetRequest, RESET_RETRY);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '' },
    validate: schemaResolver(requestPasswordResetInput, { sync: true }),
    validateInputOnBlur: true,
  });

  async function onSubmit(values: { email: string }) {
    setError(null);
    try {
      const result = await send.mutateAsync({ email: values.email });
      setSentTo(result.email);
    } catch (err) {
      // A refusal (e.g. 'Email Limit Reached') keeps its own text.
      const notice = noticeFor(err, {
        timeout: MSG.resetRequestUnexpected,
        noAnswer: MSG.resetRequestUnexpected,
        failed: MSG.resetRequestFailed,
      });
      if (notice.fieldErrors?.email) form.setFieldError('email', notice.fieldErrors.email);
      setError(notice);
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
          <FormErrorAlert error={error} />
          <EmailField {...form.getInputProps('email')} />
          <Button type="submit" fullWidth size="md" loading={send.isPending}>
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
