import { Alert, Button, Card, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useMemo, useState } from 'react';
import { formatDate, formatTime } from '../../../shared/format';
import { MSG } from '../../../shared/messages';
import type { OpeningHours } from '../../../shared/opening-hours';
import { createSlotInput } from '../../../shared/schemas/slots';
import { dateChoices, endTimeChoices, startTimeChoices } from '../../../shared/slot-rules';
import { addDaysToDate, localNow } from '../../../shared/zoned-time';
import { errorInfo, trpc } from '../../lib/trpc';
import { useNow } from '../../lib/use-now';

type Field = 'date' | 'startTime' | 'endTime' | 'description';
const EMPTY = { date: '', startTime: '', endTime: '', description: '' };

function dateLabel(date: string, today: string, tomorrow: string): string {
  if (date === today) return `Today · ${formatDate(date)}`;
  if (date === tomorrow) return `Tomorrow · ${formatDate(date)}`;
  return formatDate(date);
}

/** 'Add New Slot' (dashboards spec §2, §5 "Slot form"). */
export function AddSlotForm({ openingHours, timezone }: { openingHours: OpeningHours; timezone: string }) {
  const utils = trpc.useUtils();
  const create = trpc.slots.create.useMutation();
  const now = useNow(30_000);
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  const dates = useMemo(() => dateChoices(openingHours, timezone, now), [openingHours, timezone, now]);
  const starts = useMemo(
    () => (values.date ? startTimeChoices(values.date, openingHours, timezone, now) : []),
    [values.date, openingHours, timezone, now],
  );
  const ends = useMemo(
    () => (values.date && values.startTime ? endTimeChoices(values.date, values.startTime, openingHours) : []),
    [values.date, values.startTime, openingHours],
  );
  const today = localNow(timezone, now).date;

  // Choices move with the clock: drop a chosen value that is no longer offered.
  useEffect(() => {
    setValues((v) => {
      if (v.date && !dates.includes(v.date)) return { ...v, date: '', startTime: '', endTime: '' };
      if (v.startTime && !starts.includes(v.startTime)) return { ...v, startTime: '', endTime: '' };
      if (v.endTime && !ends.includes(v.endTime)) return { ...v, endTime: '' };
      return v;
    });
  }, [dates, starts, ends]);

  function set(field: Field, value: string) {
    setErrors((e) => ({ ...e, [field]: undefined }));
    setValues((v) => {
      if (field === 'date') return { ...v, date: value, startTime: '', endTime: '' };
      if (field === 'startTime') return { ...v, startTime: value, endTime: '' };
      return { ...v, [field]: value };
    });
  }

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    const parsed = createSlotInput.safeParse(values);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as Field | undefined;
        if (key && !next[key]) next[key] = issue.message;
      }
      setErrors(next);
      return;
    }
    try {
      await create.mutateAsync(parsed.data);
      notifications.show({
        color: 'green',
        title: MSG.slotAdded,
        message: `${formatDate(parsed.data.date)}, ${formatTime(parsed.data.startTime)} - ${formatTime(parsed.data.endTime)}`,
      });
      setValues(EMPTY);
      setErrors({});
      await utils.slots.listMine.invalidate();
    } catch (err) {
      const info = errorInfo(err);
      if (info.field && ['date', 'startTime', 'endTime', 'description'].includes(info.field)) {
        setErrors((x) => ({ ...x, [info.field as Field]: info.message }));
      }
      notifications.show({ color: 'red', title: info.title ?? MSG.slotAddFailed, message: info.message });
    }
  }

  const tomorrow = addDaysToDate(today, 1);

  return (
    <Card h="100%">
      <Title order={2} fz="lg" mb={4}>
        Add New Slot
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Publish a last-minute or cancelled appointment.
      </Text>
      {dates.length === 0 ? (
        <Alert color="yellow" variant="light">
          {MSG.noDates}
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <Select
              label="Date"
              placeholder="Select a date"
              data={dates.map((d) => ({ value: d, label: dateLabel(d, today, tomorrow) }))}
              value={values.date || null}
              onChange={(v) => set('date', v ?? '')}
              error={errors.date}
              allowDeselect={false}
              withAsterisk
            />
            <SimpleGrid cols={2} spacing="sm">
              <Select
                label="Start time"
                placeholder="Select"
                data={starts.map((t) => ({ value: t, label: formatTime(t) }))}
                value={values.startTime || null}
                onChange={(v) => set('startTime', v ?? '')}
                error={errors.startTime}
                disabled={!values.date}
                allowDeselect={false}
                maxDropdownHeight={240}
                withAsterisk
              />
              <Select
                label="End time"
                placeholder="Select"
                data={ends.map((t) => ({ value: t, label: formatTime(t) }))}
                value={values.endTime || null}
                onChange={(v) => set('endTime', v ?? '')}
                error={errors.endTime}
                disabled={!values.startTime}
                allowDeselect={false}
                maxDropdownHeight={240}
                withAsterisk
              />
            </SimpleGrid>
            <TextInput
              label="Description"
              placeholder="e.g. Cut & blow-dry, 20% off"
              value={values.description}
              onChange={(e) => set('description', e.currentTarget.value)}
              error={errors.description}
              withAsterisk
            />
            <Button type="submit" loading={create.isPending} mt={4}>
              Add Slot
            </Button>
          </Stack>
        </form>
      )}
    </Card>
  );
}
