import { Alert, Button, Card, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { formatDate, formatTimeRange } from '../../../shared/format';
import { MSG } from '../../../shared/messages';
import type { OpeningHours } from '../../../shared/opening-hours';
import { noticeFor, useTimedMutation } from '../../lib/requests';
import { trpc, trpcClient } from '../../lib/trpc';
import { SubscriptionNeeded, useSubscription } from '../billing/subscription';
import { SlotFields, useSlotForm } from './slot-form';

/**
 * 'Add New Slot': 'Slot added successfully', or the server's refusal under its title ('Email
 * verification required', 'Authentication required') or 'Failed to add slot'; 'The request timed
 * out…' after 8 s. 'No available dates…' when no date is offered. While the subscription does not allow
 * adding slots, why and a way to Subscribe instead of the form (docs/decisions/0100).
 */
export function AddSlotForm({ openingHours, timezone }: { openingHours: OpeningHours; timezone: string }) {
  const utils = trpc.useUtils();
  const create = useTimedMutation(trpcClient.slots.create);
  const form = useSlotForm(openingHours, timezone);
  const subscription = useSubscription();

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    const input = form.validate();
    if (!input) return;
    try {
      await create.mutateAsync(input);
      notifications.show({
        color: 'green',
        title: MSG.slotAdded,
        message: `${formatDate(input.date)}, ${formatTimeRange(input.startTime, input.endTime)}`,
      });
      form.reset();
    } catch (err) {
      const notice = noticeFor(err, { title: MSG.slotAddFailed });
      if (notice.kind !== 'timeout') form.showServerError(notice);
      notifications.show({ color: 'red', title: notice.title, message: notice.message });
      // A refusal by the subscription: the form gives way to its explanation.
      if (notice.code === 'PRECONDITION_FAILED') await utils.billing.subscription.invalidate();
    } finally {
      await utils.slots.listMine.invalidate();
    }
  }

  return (
    <Card h="100%">
      <Title order={2} fz="lg" mb={4}>
        Add New Slot
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Publish a last-minute or cancelled appointment.
      </Text>
      {subscription.data && !subscription.data.isActive ? (
        <SubscriptionNeeded view={subscription.data} />
      ) : form.dates.length === 0 ? (
        <Alert color="yellow" variant="light">
          {MSG.noDates}
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <SlotFields form={form} />
            <Button type="submit" loading={create.isPending} mt={4}>
              Add Slot
            </Button>
          </Stack>
        </form>
      )}
    </Card>
  );
}
