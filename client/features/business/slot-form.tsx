/**
 * The slot form's state and fields, shared by 'Add New Slot' and the edit dialog: the offered
 * dates, half-hour start times and end times come from shared/slot-rules in the business's time
 * zone and move with the clock.
 */
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Combobox.css';
import { Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { formatDate, formatTime } from '../../../shared/format';
import type { OpeningHours } from '../../../shared/opening-hours';
import { DESCRIPTION_MAX } from '../../../shared/schemas/limits';
import { createSlotInput, type CreateSlotInput } from '../../../shared/schemas/slots';
import { dateChoices, endTimeChoices, startTimeChoices } from '../../../shared/slot-rules';
import { addDaysToDate, localNow } from '../../../shared/zoned-time';
import type { ErrorInfo } from '../../lib/trpc';
import { useNow } from '../../lib/use-now';

export type SlotField = keyof CreateSlotInput;
export type SlotValues = Record<SlotField, string>;
const FIELDS: SlotField[] = ['date', 'startTime', 'endTime', 'description'];
export const EMPTY_SLOT: SlotValues = { date: '', startTime: '', endTime: '', description: '' };

/**
 * Form state for a slot of a business with `openingHours` in `timezone`, starting from `initial`.
 * Choosing a date resets the times, choosing a start resets the end, and a value no longer offered
 * (the clock moved on) is cleared.
 */
export function useSlotForm(openingHours: OpeningHours, timezone: string, initial: SlotValues = EMPTY_SLOT) {
  const now = useNow(30_000);
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<SlotField, string>>>({});

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

  useEffect(() => {
    setValues((v) => {
      if (v.date && !dates.includes(v.date)) return { ...v, date: '', startTime: '', endTime: '' };
      if (v.startTime && !starts.includes(v.startTime)) return { ...v, startTime: '', endTime: '' };
      if (v.endTime && !ends.includes(v.endTime)) return { ...v, endTime: '' };
      return v;
    });
  }, [dates, starts, ends]);

  function set(field: SlotField, value: string) {
    setErrors((e) => ({ ...e, [field]: undefined }));
    setValues((v) => {
      if (field === 'date') return { ...v, date: value, startTime: '', endTime: '' };
      if (field === 'startTime') return { ...v, startTime: value, endTime: '' };
      return { ...v, [field]: value };
    });
  }

  /** The parsed input, or null after showing the schema's messages under the fields. */
  function validate(): CreateSlotInput | null {
    const parsed = createSlotInput.safeParse(values);
    if (parsed.success) return parsed.data;
    const next: Partial<Record<SlotField, string>> = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as SlotField | undefined;
      if (key && !next[key]) next[key] = issue.message;
    }
    setErrors(next);
    return null;
  }

  /** Shows a server refusal under its field, when it names one. */
  function showServerError(info: ErrorInfo) {
    const field = info.field as SlotField | undefined;
    if (field && FIELDS.includes(field)) setErrors((e) => ({ ...e, [field]: info.message }));
  }

  function reset() {
    setValues(EMPTY_SLOT);
    setErrors({});
  }

  return { values, errors, set, validate, showServerError, reset, dates, starts, ends, today };
}

export type SlotForm = ReturnType<typeof useSlotForm>;

function dateLabel(date: string, today: string): string {
  if (date === today) return `Today · ${formatDate(date)}`;
  if (date === addDaysToDate(today, 1)) return `Tomorrow · ${formatDate(date)}`;
  return formatDate(date);
}

/** Date, start time, end time (12-hour labels) and description fields of `form`. */
export function SlotFields({ form }: { form: SlotForm }) {
  const { values, errors, set, dates, starts, ends, today } = form;
  return (
    <Stack gap="sm">
      <Select
        label="Date"
        placeholder="Select a date"
        data={dates.map((d) => ({ value: d, label: dateLabel(d, today) }))}
        value={values.date || null}
        onChange={(v) => set('date', v ?? '')}
        error={errors.date}
        allowDeselect={false}
        withAsterisk
        comboboxProps={{ withinPortal: true }}
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
        maxLength={DESCRIPTION_MAX}
        withAsterisk
      />
    </Stack>
  );
}
