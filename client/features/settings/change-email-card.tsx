import { Button, Card, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { MSG } from '../../../shared/messages';
import { EMAIL_PATTERN } from '../../../shared/schemas/auth';
import { noticeFor, TIME_LIMITS_MS, useTimedMutation } from '../../lib/requests';
import { trpcClient } from '../../lib/trpc';
import { PasswordField } from '../auth/password-field';

/**
 * Change Email Address (dashboards spec §2 "Settings", §5 "Email change", §8): the current address
 * read-only, the new one and the current password. The link goes to the new address and a notice
 * to the current one; the change happens when the link is opened (/auth-redirect).
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
  const [newEmail, setNewEmail] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [errors, setErrors] = useState<{ newEmail?: string; currentPassword?: string }>({});

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    const email = newEmail.trim();
    if (!email || !EMAIL_PATTERN.test(email)) {
      setErrors({ newEmail: email ? MSG.validEmail : MSG.newEmailRequired });
      return;
    }
    setErrors({});
    try {
      await request.mutateAsync({ newEmail: email, currentPassword });
    } catch (err) {
      // A time-out reads as a connection problem.
      const notice = noticeFor(err, { title: MSG.emailUpdateFailedTitle, timeout: MSG.connection });
      if (notice.field === 'newEmail' || notice.field === 'currentPassword') {
        setErrors({ [notice.field]: notice.message });
      }
      notifications.show({ color: 'red', title: notice.title, message: notice.message });
      return;
    }
    setNewEmail('');
    setCurrentPassword('');
    notifications.show({
      color: 'green',
      title: MSG.emailChangeRequestedTitle,
      message: MSG.emailChangeRequested,
      autoClose: 8000,
    });
  }

  return (
    <Card withBorder padding="lg">
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <Stack gap="sm">
          <div>
            <Title order={headingOrder} fz="lg">
              Change Email Address
            </Title>
            <Text size="sm" c="dimmed">
              Confirmation emails go to both your current and your new address. The change takes effect when you open
              the link sent to the new one.
            </Text>
          </div>
          <TextInput label="Current email" value={currentEmail} readOnly variant="filled" />
          <TextInput
            label="New email"
            type="email"
            autoComplete="email"
            value={newEmail}
            error={errors.newEmail}
            onChange={(e) => {
              setNewEmail(e.currentTarget.value);
              setErrors((x) => ({ ...x, newEmail: undefined }));
            }}
          />
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            value={currentPassword}
            error={errors.currentPassword}
            onChange={(e) => {
              setCurrentPassword(e.currentTarget.value);
              setErrors((x) => ({ ...x, currentPassword: undefined }));
            }}
          />
          <Button
            type="submit"
            disabled={!newEmail.trim() || !currentPassword}
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
