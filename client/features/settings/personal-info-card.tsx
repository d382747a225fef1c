import '@mantine/core/styles/Input.css';
import { Button, Card, Group, Loader, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { MSG } from '../../../shared/messages';
import { updateCustomerNameInput, type UpdateCustomerNameInput } from '../../../shared/schemas/settings';
import { noticeFor, useTimedMutation } from '../../lib/requests';
import { trpc, trpcClient } from '../../lib/trpc';
import { CardHeading } from './card-heading';
import { SettingsLoadFailed, useSettingsLoad } from './settings-load';

/**
 * Personal Information: the full name with 'Update Name'. Load failure: 'Error loading profile' /
 * 'Could not load your profile information'. Success: 'Profile updated'; the header's greeting
 * follows.
 */
export function PersonalInfoCard() {
  const profile = trpc.settings.customer.useQuery(undefined, { refetchOnWindowFocus: false });
  const load = useSettingsLoad(profile, MSG.customerProfileLoadFailed);

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="personal-info-heading">
      <Stack gap="md">
        <CardHeading id="personal-info-heading" title="Personal Information">
          The name businesses see on your requests.
        </CardHeading>
        {profile.data ? (
          // Keyed by the saved name, so the form starts again from what the server holds.
          <NameForm key={profile.data.fullName} fullName={profile.data.fullName} />
        ) : load.failed ? (
          <SettingsLoadFailed text={MSG.customerProfileLoadFailed} onRetry={load.retry} />
        ) : (
          <Group gap="xs" c="dimmed" role="status">
            <Loader size="sm" />
            Loading your profile...
          </Group>
        )}
      </Stack>
    </Card>
  );
}

function NameForm({ fullName }: { fullName: string }) {
  const utils = trpc.useUtils();
  const save = useTimedMutation(trpcClient.settings.updateCustomerName);
  const form = useForm<UpdateCustomerNameInput>({
    mode: 'controlled',
    initialValues: { fullName },
    validate: schemaResolver(updateCustomerNameInput, { sync: true }),
  });

  async function onSubmit(values: UpdateCustomerNameInput) {
    try {
      await save.mutateAsync(updateCustomerNameInput.parse(values));
    } catch (err) {
      const notice = noticeFor(err, { timeout: MSG.profileSaveTimeout });
      if (notice.fieldErrors?.fullName) form.setFieldError('fullName', notice.fieldErrors.fullName);
      notifications.show({ color: 'red', title: MSG.errorUpdatingProfileTitle, message: notice.message });
      return;
    }
    notifications.show({ color: 'green', title: MSG.profileUpdatedTitle, message: 'Your name has been saved.' });
    // The header's 'Welcome, {name}' and the dashboard greeting read auth.me.
    await Promise.all([utils.settings.customer.invalidate(), utils.auth.me.invalidate()]);
  }

  return (
    <form onSubmit={form.onSubmit((v) => void onSubmit(v))} noValidate>
      <Stack gap="sm">
        <TextInput label="Full name" withAsterisk autoComplete="name" {...form.getInputProps('fullName')} />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} w={{ base: '100%', sm: 'auto' }}>
            Update Name
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
