import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/Switch.css';
import { Group, Select, Stack, Switch, Text } from '@mantine/core';
import { formatTime } from '../../../shared/format';
import { WEEKDAY_LABEL, WEEKDAYS, type Weekday, type WeeklySchedule } from '../../../shared/opening-hours';
import { fromMinutes } from '../../../shared/time-of-day';

/** A choice of the time selects; the end-of-day '24:00' reads as midnight. */
const option = (t: string) => ({ value: t, label: t === '24:00' ? 'Midnight' : formatTime(t) });
const choices = (from: number, to: number, step: number) =>
  Array.from({ length: (to - from) / step + 1 }, (_, i) => option(fromMinutes(from + i * step)));

/**
 * The time choices: half-hour steps (onboarding) or whole hours 0 to 24 (settings). Opening times
 * run to the last step before midnight, closing times from the first step to 24:00.
 */
const TIME_CHOICES = {
  'half-hour': { start: choices(0, 1410, 30), end: choices(30, 1440, 30) },
  hour: { start: choices(0, 1380, 60), end: choices(60, 1440, 60) },
} as const;
export type ScheduleStep = keyof typeof TIME_CHOICES;

/** `data` plus `value` when it is off the grid (hours saved elsewhere stay selectable). */
function withValue(data: ReadonlyArray<{ value: string; label: string }>, value: string) {
  if (data.some((o) => o.value === value)) return data as Array<{ value: string; label: string }>;
  return [...data, option(value)].sort((a, b) => a.value.localeCompare(b.value));
}

/**
 * Weekly opening hours: a switch per day plus opening and closing times, on the half hour
 * (default) or on whole hours (`step="hour"`).
 */
export function ScheduleEditor({
  value,
  onChange,
  error,
  step = 'half-hour',
}: {
  value: WeeklySchedule;
  onChange: (next: WeeklySchedule) => void;
  error?: string | null;
  step?: ScheduleStep;
}) {
  const times = TIME_CHOICES[step];
  function update(day: Weekday, patch: Partial<WeeklySchedule[Weekday]>) {
    onChange({ ...value, [day]: { ...value[day], ...patch } });
  }
  return (
    <Stack gap="xs">
      {WEEKDAYS.map((day) => {
        const row = value[day];
        const invalid = row.isActive && row.end <= row.start;
        return (
          <Group
            key={day}
            justify="space-between"
            gap="xs"
            wrap="wrap"
            py={6}
            style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
          >
            <Switch
              label={WEEKDAY_LABEL[day]}
              checked={row.isActive}
              onChange={(e) => update(day, { isActive: e.currentTarget.checked })}
              w={130}
            />
            {row.isActive ? (
              <Group gap={6} wrap="nowrap">
                <Select
                  aria-label={`${WEEKDAY_LABEL[day]} opening time`}
                  data={withValue(times.start, row.start)}
                  value={row.start}
                  onChange={(v) => v && update(day, { start: v })}
                  allowDeselect={false}
                  w={116}
                  size="sm"
                  error={invalid}
                  comboboxProps={{ withinPortal: true }}
                />
                <Text size="sm" c="dimmed">
                  to
                </Text>
                <Select
                  aria-label={`${WEEKDAY_LABEL[day]} closing time`}
                  data={withValue(times.end, row.end)}
                  value={row.end}
                  onChange={(v) => v && update(day, { end: v })}
                  allowDeselect={false}
                  w={116}
                  size="sm"
                  error={invalid}
                />
              </Group>
            ) : (
              <Text size="sm" c="dimmed" py={6}>
                Closed
              </Text>
            )}
          </Group>
        );
      })}
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
