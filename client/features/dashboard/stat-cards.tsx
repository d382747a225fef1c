import '@mantine/core/styles/Skeleton.css';
import { Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';

export interface Stat {
  label: string;
  value: number;
  color?: string;
}

/** The dashboards' count cards; `loading` shows placeholders instead of numbers not known yet. */
export function StatCards({
  stats,
  cols,
  loading = false,
}: {
  stats: Stat[];
  cols: { base: number; sm?: number; md?: number };
  loading?: boolean;
}) {
  return (
    <SimpleGrid cols={cols} spacing={{ base: 'xs', sm: 'md' }} className="stat-grid">
      {stats.map((s) => (
        <Paper
          key={s.label}
          withBorder
          p={{ base: 'sm', sm: 'md' }}
          radius="lg"
          aria-label={loading ? s.label : `${s.label}: ${s.value}`}
          aria-busy={loading || undefined}
          role="group"
        >
          <Text size="xs" tt="uppercase" fw={700} c="dimmed" style={{ letterSpacing: '0.04em' }}>
            {s.label}
          </Text>
          {loading ? (
            <Skeleton height={28} width={40} mt={8} radius="sm" />
          ) : (
            <Text fz={{ base: 24, sm: 30 }} fw={800} c={s.color ?? 'dark.8'} lh={1.2} mt={4}>
              {s.value}
            </Text>
          )}
        </Paper>
      ))}
    </SimpleGrid>
  );
}
