import '@mantine/core/styles/Input.css';
import { Button, Card, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { MSG } from '../../../shared/messages';
import { EMAIL_PATTERN } from '../../../shared/schemas/auth';
import { noticeFor, TIME_LIMITS_MS, useTimedMutation } from '../../lib/requests';
import { trpcClient } from '../../lib/trpc';
import { PasswordField } from '../auth/password-field';
import { CardHeading } from './card-heading';

/** The new address: required, then well-formed. */
function newEmailError(typed: string): string | null {
  const email = typed.trim();
  if (!email) return MSG.newEmailRequired;
  return EMAIL_PATTERN.test(email) ? null : MSG.validEmail;
}

/**
 * Change Email Address: the current address read-only, the new one and the current password. The
 * link goes to the new address and a notice to the current one; the change happens when the link
 * is opened (/auth-redirect).
 */
export function ChangeEmailCard({
  currentEmail,
  headingOrder = 2,
}: {
  currentEmail: string;
  /** 3 inside the business's 'Account Settings' section. */
  headingOrder?: 2 | 3;
}) {
  const request = useTimedMutation(trpcClient.auth.requestEmailChange, TIME_LIMITS_MS.emailChange);
  const form = useForm({
    mode: 'controlled',
    initialValues: { newEmail: '', currentPassword: '' },
    validate: { newEmail: newEmailError },
  });

  async function onSubmit(values: typeof form.values) {
    try {
      await request.mutateAsync({ newEmail: values.newEmail.trim(), currentPassword: values.currentPassword });
    } catch (err) {
      // A time-out reads as a connection problem.
      const notice = noticeFor(err, { title: MSG.emailUpdateFailedTitle, timeout: MSG.connection });
      if (notice.field === 'newEmail' || notice.field === 'currentPassword') {
        form.setErrors({ [notice.field]: notice.message });
      }
      notifications.show({ color: 'red', title: notice.title, message: notice.message });
      return;
    }
    form.reset();
    notifications.show({
      color: 'green',
      title: MSG.emailChangeRequestedTitle,
      message: MSG.emailChangeRequested,
      autoClose: 8000,
    });
  }

  return (
    <Card withBorder padding="lg">
      <form onSubmit={form.onSubmit((values) => void onSubmit(values))} noValidate>
        <Stack gap="sm">
          <CardHeading title="Change Email Address" order={headingOrder}>
            Confirmation emails go to both your current and your new address. The change takes effect when you open the
            link sent to the new one.
          </CardHeading>
          <TextInput label="Current email" value={currentEmail} readOnly variant="filled" />
          <TextInput label="New email" type="email" autoComplete="email" {...form.getInputProps('newEmail')} />
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            {...form.getInputProps('currentPassword')}
          />
          <Button
            type="submit"
            disabled={!form.values.newEmail.trim() || !form.values.currentPassword}
            loading={request.isPending}
            w={{ base: '100%', sm: 'auto' }}
          >
            Change Email
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
