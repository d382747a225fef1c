import { Button, Card, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { MSG } from '../../../shared/messages';
import { EMAIL_PATTERN } from '../../../shared/schemas/auth';
import { errorInfo, trpc } from '../../lib/trpc';
import { PasswordField } from '../auth/password-field';

const EMAIL_UPDATE_TIMEOUT_MS = 10_000;
const TIMEOUT = Symbol('timeout');

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
  const request = trpc.auth.requestEmailChange.useMutation();
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
      // Dashboards spec §9: the email update gives up after 10 s.
      const outcome = await Promise.race([
        request.mutateAsync({ newEmail: email, currentPassword }),
        new Promise<typeof TIMEOUT>((resolve) => setTimeout(() => resolve(TIMEOUT), EMAIL_UPDATE_TIMEOUT_MS)),
      ]);
      if (outcome === TIMEOUT) {
        notifications.show({ color: 'red', title: MSG.emailUpdateFailedTitle, message: MSG.connection });
        return;
      }
    } catch (err) {
      const info = errorInfo(err);
      if (info.field === 'newEmail' || info.field === 'currentPassword') setErrors({ [info.field]: info.message });
      notifications.show({ color: 'red', title: info.title ?? MSG.emailUpdateFailedTitle, message: info.message });
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
