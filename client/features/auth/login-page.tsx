import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { MSG } from '../../../shared/messages';
import { loginInput } from '../../../shared/schemas/auth';
import { AuthCard } from './auth-card';
import { EmailField, FormErrorAlert } from './form-parts';
import { PasswordField } from './password-field';
import { refreshMe } from './guards';
import { useAuth } from './use-auth';
import { FullPageLoader } from '../layout/full-page-loader';
import { confirmBanner } from './confirm-banner';
import { clearPendingRegistration, rememberCheckEmail } from './pending-registration';
import { broadcastSessionChange, markLocalSessionChange } from './session-sync';
import { errorInfo, trpc, type ErrorInfo } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';

const route = getRouteApi('/login');

/**
 * Login page URL error codes: toast title and text. Any other code (among them /auth-redirect's
 * session_error, no_user, session_setup_failed, auth_context_failed) gets 'An unknown error
 * occurred. Please try again.' (docs/decisions/0010).
 */
const URL_ERRORS: Record<string, { title: string; message: string }> = {
  session_invalid: { title: 'Session Error', message: 'Your session is invalid. Please log in again.' },
  no_session: { title: 'Authentication Required', message: 'Please log in to continue.' },
  invalid_role: {
    title: 'Account Setup Required',
    message: 'Your account role is not properly configured. Please contact support.',
  },
  confirmation_failed: { title: MSG.confirmationFailedTitle, message: MSG.confirmationFailed },
  timeout: { title: 'Request Timeout', message: 'The confirmation process timed out. Please try logging in.' },
  retry: { title: 'Please Try Again', message: 'There was an issue with your session. Please log in again.' },
};

function bannerTextFor(code: string): string {
  return ['timeout', 'retry', 'session_invalid'].includes(code)
    ? 'Please try logging in again.'
    : 'Please check your credentials and try again.';
}

export function LoginPage() {
  usePageTitle('Log in');
  const search = route.useSearch();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const { user, authState, isLoading } = useAuth();
  const [serverError, setServerError] = useState<ErrorInfo | null>(null);
  const loggingIn = useRef(false);
  const announced = useRef(false);

  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '', password: '' },
    validate: schemaResolver(loginInput, { sync: true }),
    validateInputOnBlur: true,
  });

  const login = trpc.auth.login.useMutation();

  // Toasts from the query string, once.
  useEffect(() => {
    if (announced.current) return;
    announced.current = true;
    if (search.confirmed) {
      notifications.show({ color: 'green', title: MSG.emailConfirmedTitle, message: MSG.emailConfirmed });
    }
    if (search.message === 'password_updated') {
      notifications.show({
        color: 'green',
        title: 'Password updated!',
        message: 'You can now log in with your new password.',
      });
    }
    if (search.error) {
      const known = URL_ERRORS[search.error];
      notifications.show({
        color: 'red',
        title: known?.title ?? 'Error',
        message: known?.message ?? MSG.loginUnknownError,
      });
    }
  }, [search.confirmed, search.message, search.error]);

  // Already signed in with a confirmed email: on to the dashboard after about a second.
  const alreadySignedIn = !loggingIn.current && user?.isVerified === true && authState !== 'unregistered';
  useEffect(() => {
    if (!alreadySignedIn) return;
    const timer = setTimeout(() => void navigate({ to: '/dashboard' }), 1000);
    return () => clearTimeout(timer);
  }, [alreadySignedIn, navigate]);

  async function onSubmit(values: typeof form.values) {
    setServerError(null);
    loggingIn.current = true;
    try {
      await login.mutateAsync({ email: values.email, password: values.password });
    } catch (err) {
      loggingIn.current = false;
      const info = errorInfo(err);
      if (info.fieldErrors) {
        form.setErrors(info.fieldErrors);
      }
      if (info.message === MSG.emailNotConfirmedLogin) {
        // Only a right password gets here; the refusal names the role for the banner's sentence.
        const role = info.details?.role;
        confirmBanner.raise(role === 'business' || role === 'customer' ? role : null);
        rememberCheckEmail(values.email.trim().toLowerCase());
      }
      setServerError(info);
      return;
    }
    confirmBanner.reset();
    clearPendingRegistration();
    markLocalSessionChange();
    broadcastSessionChange('login');
    // A new session: forget whatever the previous one cached, then load who we are now.
    queryClient.removeQueries({ predicate: (q) => q.getObserversCount() === 0 });
    await refreshMe(utils);
    await navigate({ to: '/dashboard' });
  }

  if (isLoading) return <FullPageLoader label="Loading..." />;
  if (alreadySignedIn) return <FullPageLoader label="You're already logged in. Taking you to your dashboard..." />;

  const urlError = search.error ? bannerTextFor(search.error) : null;
  const unconfirmed = serverError?.message === MSG.emailNotConfirmedLogin;

  return (
    <AuthCard title="Welcome back" subtitle="Log in to manage your slots and appointments.">
      <form onSubmit={form.onSubmit(onSubmit)} noValidate>
        <Stack gap="md">
          {urlError && !serverError && (
            <Alert color="red" variant="light" role="alert">
              {urlError}
            </Alert>
          )}
          <FormErrorAlert error={serverError}>
            <Text size="sm">{serverError?.message}</Text>
            {unconfirmed && (
              <Anchor
                component={Link}
                to="/check-email"
                state={{ email: form.values.email.trim().toLowerCase() }}
                size="sm"
                mt={6}
                display="inline-block"
              >
                Resend the confirmation email
              </Anchor>
            )}
          </FormErrorAlert>
          <EmailField {...form.getInputProps('email')} />
          <PasswordField
            label="Password"
            autoComplete="current-password"
            placeholder="Your password"
            withAsterisk
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to="/forgot-password" size="sm">
              Reset password
            </Anchor>
          </Group>
          <Button type="submit" fullWidth size="md" loading={login.isPending}>
            Log In
          </Button>
          <Text size="sm" ta="center" c="dimmed">
            Don&apos;t have an account?{' '}
            <Anchor component={Link} to="/register" fw={600}>
              Sign up
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
