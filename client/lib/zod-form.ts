import type { z } from 'zod';

/**
 * Mantine form validator from a zod schema: the first message of each field (dotted paths, as
 * Mantine expects). The schemas are the server's own, with the specs' messages.
 */
export function zodValidate<T>(schema: z.ZodType) {
  return (values: T): Record<string, string> => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const key = issue.path.map(String).join('.');
      if (key && !(key in errors)) errors[key] = issue.message;
    }
    return errors;
  };
}

/** The first message of one value against a schema, or null when it is valid. */
export function firstError(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}
