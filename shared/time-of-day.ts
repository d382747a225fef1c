/** 'HH:MM' (00:00-24:00) to minutes after midnight. */
export function toMinutes(time: string): number {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

/** Minutes after midnight (0-1440) to 'HH:MM'. */
export function fromMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
export const END_TIME_PATTERN = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
