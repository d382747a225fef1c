import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/Modal.css';
import { Alert, Button, Card, Group, List, Modal, Progress, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { MSG } from '../../../shared/messages';
import { deleteAccountInput } from '../../../shared/schemas/settings';
import { confirmBanner } from '../auth/confirm-banner';
import { broadcastSessionChange, sessionEndAbandoned, sessionEndStarting } from '../auth/session-sync';
import { callWithTimeout, noticeFor, TIME_LIMITS_MS, useTimedMutation } from '../../lib/requests';
import { errorInfo, trpc, trpcClient } from '../../lib/trpc';
import { PasswordField } from '../auth/password-field';
import { CardHeading } from './card-heading';

type Role = 'business' | 'customer';

/**
 * Data & Privacy: 'Download Your Data' and 'Delete Account', each through its dialog. Used by both
 * roles.
 */
export function DataPrivacyCard({ role }: { role: Role }) {
  const [downloadOpen, download] = useDisclosure(false);
  const [deleteOpen, deletion] = useDisclosure(false);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="data-privacy-heading">
      <Stack gap="md">
        <CardHeading id="data-privacy-heading" title="Data & Privacy">
          Download a copy of your data, or delete your account for good.
        </CardHeading>
        <Group gap="sm">
          <Button variant="default" onClick={download.open}>
            Download Your Data
          </Button>
          <Button color="red" variant="light" onClick={deletion.open}>
            Delete Account
          </Button>
        </Group>
      </Stack>
      <DownloadDataDialog role={role} opened={downloadOpen} onClose={download.close} />
      <DeleteAccountDialog role={role} opened={deleteOpen} onClose={deletion.close} />
    </Card>
  );
}

/** Saves `data` as a JSON file named `fileName` through a temporary link. */
function saveJson(fileName: string, data: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** The export's failure text: time-out, no answer, or (any answer) what could not be read. */
function exportFailure(err: unknown, role: Role): string {
  const unread =
    role === 'business'
      ? MSG.exportBusinessFailed
      : errorInfo(err).code === 'NOT_FOUND'
        ? MSG.exportProfileFailed
        : MSG.exportBookingsFailed;
  return noticeFor(err, { timeout: MSG.exportTimeout, noAnswer: MSG.exportNetwork, failed: unread, refused: unread })
    .message;
}

type DownloadStep = { progress: number; label: string };

/** The data download dialog: a JSON file of the account's data (docs/decisions/0014). */
function DownloadDataDialog({ role, opened, onClose }: { role: Role; opened: boolean; onClose: () => void }) {
  const utils = trpc.useUtils();
  const [step, setStep] = useState<DownloadStep | null>(null);
  const [error, setError] = useState<string | null>(null);
  const busy = step !== null && step.progress < 100;

  function close() {
    if (busy) return;
    setStep(null);
    setError(null);
    onClose();
  }

  async function start() {
    setError(null);
    setStep({ progress: 15, label: 'Collecting your profile, bookings and favourites...' });
    try {
      // Through the query cache, so its failures are retried within the limit.
      const file = await callWithTimeout(
        () => utils.account.exportData.fetch(undefined, { staleTime: 0 }),
        TIME_LIMITS_MS.dataExport,
      );
      setStep({ progress: 80, label: 'Preparing your file...' });
      saveJson(file.fileName, file.data);
      setStep({ progress: 100, label: `Saved as ${file.fileName}` });
      notifications.show({ color: 'green', title: 'Download ready', message: MSG.exportReady });
    } catch (err) {
      const message = exportFailure(err, role);
      setStep(null);
      setError(message);
      notifications.show({ color: 'red', title: 'Download failed', message });
    } finally {
      utils.account.exportData.reset();
    }
  }

  return (
    <Modal opened={opened} onClose={close} title="Download your data" centered closeOnClickOutside={!busy}>
      <Stack gap="md">
        <Text size="sm">A JSON file with everything LastSlot holds about you:</Text>
        <List size="sm" spacing={4}>
          <List.Item>your profile and account details</List.Item>
          {role === 'business' && <List.Item>your slots</List.Item>}
          <List.Item>
            {role === 'business'
              ? 'bookings, with the customer and slot details'
              : 'your bookings, with each slot and business'}
          </List.Item>
          <List.Item>
            {role === 'business' ? 'the favourites your business received' : 'your favourite businesses'}
          </List.Item>
        </List>
        {step && (
          <Stack gap={6}>
            <Progress value={step.progress} animated={busy} aria-label="Download progress" />
            <Text size="sm" c="dimmed" aria-live="polite">
              {step.label}
            </Text>
          </Stack>
        )}
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={busy}>
            {step?.progress === 100 ? 'Close' : 'Cancel'}
          </Button>
          {step?.progress !== 100 && (
            <Button onClick={() => void start()} loading={busy}>
              Download
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * The delete-account dialog: type DELETE and the current password (docs/decisions/0014); on success
 * signed out to / with 'Your account has been deleted successfully'.
 */
function DeleteAccountDialog({ role, opened, onClose }: { role: Role; opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useTimedMutation(trpcClient.account.delete, TIME_LIMITS_MS.accountDelete);
  const form = useForm({
    mode: 'controlled',
    initialValues: { confirmation: '', currentPassword: '' },
    validate: schemaResolver(deleteAccountInput, { sync: true }),
  });

  function close() {
    if (remove.isPending) return;
    form.reset();
    onClose();
  }

  async function onDelete(values: typeof form.values) {
    sessionEndStarting();
    try {
      await remove.mutateAsync(values);
    } catch (err) {
      sessionEndAbandoned();
      const notice = noticeFor(err);
      if (notice.field === 'currentPassword') form.setErrors({ currentPassword: notice.message });
      notifications.show({
        color: 'red',
        title: MSG.deletionFailedTitle,
        message: `Failed to delete account: ${notice.message}`,
      });
      return;
    }
    // Signed out: like a logout, this tab leaves on purpose and the other tabs follow.
    confirmBanner.reset();
    broadcastSessionChange('logout');
    await navigate({ to: '/', replace: true });
    queryClient.removeQueries({ predicate: (q) => q.getObserversCount() === 0 });
    await queryClient.resetQueries();
    notifications.show({ color: 'green', title: 'Account deleted', message: MSG.accountDeleted });
  }

  return (
    <Modal opened={opened} onClose={close} title="Delete account" centered closeOnClickOutside={!remove.isPending}>
      <form onSubmit={form.onSubmit((values) => void onDelete(values))} noValidate>
        <Stack gap="md">
          <Alert color="red" variant="light" title="This cannot be undone">
            {role === 'business'
              ? 'Your business page, slots, hours and settings are deleted and open requests are declined. Customers keep a record of their appointments.'
              : 'Your profile and favourites are deleted and your pending requests are withdrawn. Businesses keep a record of confirmed appointments.'}
          </Alert>
          <TextInput
            label="Type DELETE to confirm"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            {...form.getInputProps('confirmation')}
          />
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            {...form.getInputProps('currentPassword')}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={remove.isPending}>
              Delete Account
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
