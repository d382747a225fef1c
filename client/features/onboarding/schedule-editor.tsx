import { Group, Select, Stack, Switch, Text } from '@mantine/core';
import { formatTime } from '../../../shared/format';
import { WEEKDAY_LABEL, WEEKDAYS, type Weekday, type WeeklySchedule } from '../../../shared/opening-hours';
import { fromMinutes } from '../../../shared/time-of-day';

const START_TIMES = Array.from({ length: 48 }, (_, i) => fromMinutes(i * 30));
const END_TIMES = Array.from({ length: 48 }, (_, i) => fromMinutes((i + 1) * 30));
const startData = START_TIMES.map((t) => ({ value: t, label: formatTime(t) }));
const endData = END_TIMES.map((t) => ({ value: t, label: formatTime(t) }));

/** Weekly opening hours: a switch per day plus opening and closing times on the half hour. */
export function ScheduleEditor({
  value,
  onChange,
  error,
}: {
  value: WeeklySchedule;
  onChange: (next: WeeklySchedule) => void;
  error?: string | null;
}) {
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
                  data={startData}
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
                  data={endData}
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
