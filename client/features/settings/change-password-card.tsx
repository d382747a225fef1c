import { Button, Card, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { MSG } from '../../../shared/messages';
import { PASSWORD_MIN } from '../../../shared/schemas/limits';
import { noticeFor } from '../../lib/requests';
import { broadcastSessionChange } from '../auth/session-sync';
import { trpc } from '../../lib/trpc';
import { PasswordField } from '../auth/password-field';
import { CardHeading } from './card-heading';

/**
 * Change Password: current password, new password and its confirmation. The button stays disabled
 * while a field is empty. Other devices are signed out; this one stays signed in.
 */
export function ChangePasswordCard({
  headingOrder = 2,
}: {
  /** 3 inside the business's 'Account Settings' section. */
  headingOrder?: 2 | 3;
} = {}) {
  const change = trpc.auth.changePassword.useMutation();
  const form = useForm({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { values } = form;

  async function onSubmit() {
    if (values.newPassword !== values.confirmPassword) {
      notifications.show({ color: 'red', title: MSG.passwordMismatchTitle, message: MSG.passwordMismatch });
      return;
    }
    if (values.newPassword.length < PASSWORD_MIN) {
      notifications.show({ color: 'red', title: MSG.passwordTooShortTitle, message: MSG.passwordTooShort });
      return;
    }
    try {
      await change.mutateAsync({ currentPassword: values.currentPassword, newPassword: values.newPassword });
    } catch (err) {
      const notice = noticeFor(err);
      if (notice.field === 'currentPassword') form.setFieldError('currentPassword', notice.message);
      notifications.show({ color: 'red', title: MSG.passwordUpdateFailedTitle, message: notice.message });
      return;
    }
    form.reset();
    broadcastSessionChange();
    notifications.show({ color: 'green', title: MSG.passwordChangedTitle, message: MSG.passwordChanged });
  }

  const empty = !values.currentPassword || !values.newPassword || !values.confirmPassword;
  return (
    <Card withBorder padding="lg">
      <form onSubmit={form.onSubmit(() => void onSubmit())} noValidate>
        <Stack gap="sm">
          <CardHeading title="Change Password" order={headingOrder}>
            At least 8 characters. Your other devices will be signed out.
          </CardHeading>
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            {...form.getInputProps('currentPassword')}
          />
          <PasswordField label="New password" autoComplete="new-password" {...form.getInputProps('newPassword')} />
          <PasswordField
            label="Confirm new password"
            autoComplete="new-password"
            {...form.getInputProps('confirmPassword')}
          />
          <Button type="submit" disabled={empty} loading={change.isPending} w={{ base: '100%', sm: 'auto' }}>
            Change Password
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
