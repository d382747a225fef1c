import { Button, Card, Group, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { MSG } from '../../../shared/messages';
import { WEEKDAYS, type WeeklySchedule } from '../../../shared/opening-hours';
import { noticeFor, TIME_LIMITS_MS, useTimedMutation } from '../../lib/requests';
import { trpc, trpcClient } from '../../lib/trpc';
import { ScheduleEditor } from '../onboarding/schedule-editor';
import { CardHeading } from './card-heading';

/**
 * Business Hours: per day an active switch with opening and closing hours from 0 to 24; only active
 * days are saved.
 */
export function BusinessHoursCard({ initial }: { initial: WeeklySchedule }) {
  const utils = trpc.useUtils();
  const save = useTimedMutation(trpcClient.settings.updateBusinessHours, TIME_LIMITS_MS.hoursSave);
  const [schedule, setSchedule] = useState(initial);
  const [error, setError] = useState<string | null>(null);

  async function onSave() {
    if (WEEKDAYS.some((d) => schedule[d].isActive && schedule[d].end <= schedule[d].start)) {
      setError(MSG.closingAfterOpening);
      notifications.show({ color: 'red', title: MSG.validationErrorTitle, message: MSG.closingAfterOpening });
      return;
    }
    try {
      await save.mutateAsync({ schedule });
    } catch (err) {
      const notice = noticeFor(err, { timeout: MSG.hoursSaveTimeout });
      // An input error names the problem beside the editor; the toast stays general.
      if (notice.httpStatus === 400) setError(notice.message);
      notifications.show({
        color: 'red',
        title: 'Error',
        message: notice.kind === 'timeout' ? notice.message : MSG.hoursSaveFailed,
      });
      return;
    }
    notifications.show({ color: 'green', title: MSG.profileUpdatedTitle, message: 'Your business hours are saved.' });
    await Promise.all([utils.settings.business.invalidate(), utils.businesses.mine.invalidate()]);
  }

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="business-hours-heading">
      <Stack gap="md">
        <CardHeading id="business-hours-heading" title="Business Hours">
          Customers see these hours, and slots can only be added while you are open.
        </CardHeading>
        <ScheduleEditor
          step="hour"
          value={schedule}
          onChange={(next) => {
            setSchedule(next);
            setError(null);
          }}
          error={error}
        />
        <Group justify="flex-end">
          <Button onClick={() => void onSave()} loading={save.isPending} w={{ base: '100%', sm: 'auto' }}>
            Save Hours
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
