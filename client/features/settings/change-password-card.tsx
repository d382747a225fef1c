import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { MSG } from '../../../shared/messages';
import { PASSWORD_MIN } from '../../../shared/schemas/limits';
import { broadcastSessionChange } from '../../lib/session-sync';
import { errorInfo, trpc } from '../../lib/trpc';
import { PasswordField } from '../auth/password-field';

/**
 * Change Password (dashboards spec §2 "Settings", §5 "Password change", §8): current password,
 * new password and its confirmation. The button stays disabled while a field is empty. Other
 * devices are signed out; this one stays signed in.
 */
export function ChangePasswordCard({
  headingOrder = 2,
}: {
  /** 3 inside the business's 'Account Settings' section. */
  headingOrder?: 2 | 3;
} = {}) {
  const change = trpc.auth.changePassword.useMutation();
  const [values, setValues] = useState({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [currentError, setCurrentError] = useState<string | null>(null);

  const bind = (field: keyof typeof values) => ({
    value: values[field],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const value = e.currentTarget.value;
      setValues((v) => ({ ...v, [field]: value }));
      if (field === 'currentPassword') setCurrentError(null);
    },
  });

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
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
      const info = errorInfo(err);
      if (info.field === 'currentPassword') setCurrentError(info.message);
      notifications.show({ color: 'red', title: MSG.passwordUpdateFailedTitle, message: info.message });
      return;
    }
    setValues({ currentPassword: '', newPassword: '', confirmPassword: '' });
    broadcastSessionChange();
    notifications.show({ color: 'green', title: MSG.passwordChangedTitle, message: MSG.passwordChanged });
  }

  const empty = !values.currentPassword || !values.newPassword || !values.confirmPassword;
  return (
    <Card withBorder padding="lg">
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <Stack gap="sm">
          <div>
            <Title order={headingOrder} fz="lg">
              Change Password
            </Title>
            <Text size="sm" c="dimmed">
              At least 8 characters. Your other devices will be signed out.
            </Text>
          </div>
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            error={currentError}
            {...bind('currentPassword')}
          />
          <PasswordField label="New password" autoComplete="new-password" {...bind('newPassword')} />
          <PasswordField label="Confirm new password" autoComplete="new-password" {...bind('confirmPassword')} />
          <Button type="submit" disabled={empty} loading={change.isPending} w={{ base: '100%', sm: 'auto' }}>
            Change Password
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
