import { Alert, Button, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { MSG } from '../../../shared/messages';
import { resetPasswordForm } from '../../../shared/schemas/auth';
import { AuthCard } from './auth-card';
import { FormErrorAlert } from './form-parts';
import { PasswordField } from './password-field';
import { FullPageLoader } from '../layout/full-page-loader';
import { broadcastSessionChange } from './session-sync';
import { errorInfo, trpc, type ErrorInfo } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';
import { readEmailLink, type EmailLinkSearch } from './search-params';

const route = getRouteApi('/reset-password');

/** The message of a link error carried in the URL. */
function linkErrorMessage(link: EmailLinkSearch): string {
  const text = `${link.error ?? ''} ${link.error_description ?? ''}`.toLowerCase();
  if (/expired|session|jwt/.test(text)) return MSG.resetSessionExpired;
  return MSG.resetInvalid;
}

const STATUS_MESSAGE = {
  expired: MSG.resetExpired,
  invalid: MSG.resetInvalid,
  wrong_type: MSG.resetWrongType,
} as const;

/**
 * /reset-password (docs/decisions/0009): validating, then the invalid-link screen or the
 * new-password form; success goes to /login?message=password_updated.
 */
export function ResetPasswordPage() {
  usePageTitle('Set a new password');
  const search = route.useSearch();
  const navigate = useNavigate();
  // Read the link once, then take the token out of the address bar (and the browser history).
  const [link] = useState(() => readEmailLink(search));
  useEffect(() => {
    if (search.token || window.location.hash) void navigate({ to: '/reset-password', search: {}, replace: true });
  }, [search.token, navigate]);

  const check = trpc.auth.checkResetToken.useQuery(
    { token: link.token ?? '' },
    { enabled: Boolean(link.token) && !link.error, staleTime: Infinity, gcTime: 0, retry: 1 },
  );
  const [submitError, setSubmitError] = useState<ErrorInfo | null>(null);

  if (link.error) return <InvalidLink message={linkErrorMessage(link)} />;
  if (!link.token) return <InvalidLink message={MSG.resetMissingTokens} />;
  if (check.isPending) return <FullPageLoader label="Validating your reset link..." />;
  if (check.isError) return <InvalidLink message={MSG.resetValidateFailed} />;
  if (check.data.status !== 'valid') return <InvalidLink message={STATUS_MESSAGE[check.data.status]} />;
  if (submitError?.code === 'BAD_REQUEST' && Object.values(STATUS_MESSAGE).includes(submitError.message as never)) {
    return <InvalidLink message={submitError.message} />;
  }
  return <NewPasswordForm token={link.token} error={submitError} onError={setSubmitError} />;
}

function NewPasswordForm({
  token,
  error,
  onError,
}: {
  token: string;
  error: ErrorInfo | null;
  onError: (info: ErrorInfo | null) => void;
}) {
  const navigate = useNavigate();
  const reset = trpc.auth.resetPassword.useMutation();
  const form = useForm({
    mode: 'controlled',
    initialValues: { password: '', confirmPassword: '' },
    validate: schemaResolver(resetPasswordForm, { sync: true }),
    validateInputOnBlur: true,
  });

  async function onSubmit(values: { password: string; confirmPassword: string }) {
    onError(null);
    try {
      await reset.mutateAsync({ token, password: values.password });
    } catch (err) {
      const info = errorInfo(err);
      if (info.fieldErrors?.password) form.setFieldError('password', info.fieldErrors.password);
      onError(info);
      return;
    }
    // Every session of the account has ended (this tab's too): tell the other tabs.
    broadcastSessionChange();
    await navigate({ to: '/login', search: { message: 'password_updated' }, replace: true });
  }

  return (
    <AuthCard title="Set a new password" subtitle="Choose a new password for your account.">
      <form onSubmit={form.onSubmit(onSubmit)} noValidate>
        <Stack gap="md">
          <FormErrorAlert error={error} />
          <PasswordField
            label="New password"
            autoComplete="new-password"
            placeholder="At least 8 characters"
            description="At least 8 characters, ideally letters and numbers."
            withAsterisk
            {...form.getInputProps('password')}
          />
          <PasswordField
            label="Confirm new password"
            autoComplete="new-password"
            withAsterisk
            {...form.getInputProps('confirmPassword')}
          />
          <Button type="submit" fullWidth size="md" loading={reset.isPending}>
            Update Password
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}

/** The invalid-link screen: request a new link, or go back to login. */
function InvalidLink({ message }: { message: string }) {
  return (
    <AuthCard title="Reset link not valid">
      <Stack gap="md">
        <Alert color="red" variant="light" role="alert">
          <Text size="sm">{message}</Text>
        </Alert>
        <Button component={Link} to="/forgot-password">
          Request New Reset Link
        </Button>
        <Button component={Link} to="/login" variant="default">
          Back to Login
        </Button>
      </Stack>
    </AuthCard>
  );
}
