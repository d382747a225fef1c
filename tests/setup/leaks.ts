/** The check that an HTTP answer carries no internal text (docs/decisions/0030). */
import { expect } from 'vitest';

/** Texts that must never reach a client: framework codes, stack frames, runtime messages, SQL. */
const LEAKS: RegExp[] = [
  /FST_/,
  /stack/i,
  /\bat \S+ \(/,
  /\s+at .+:\d+:\d+/,
  /node_modules/,
  /Unknown transformation/i,
  /Unexpected (token|end)/i,
  /is not allowed as a property|No procedure found|Unsupported (content-type|GET|POST)|Batch call|Failed to parse/i,
  /\b(select|insert into|update|delete from)\b[^"]*\b(from|values|set|where)\b/i,
  /postgres|drizzle|pglite|relation "|violates|syntax error|SQLSTATE/i,
];

/** Fails when `body` holds any internal text. */
export function expectNoLeak(body: string): void {
  for (const leak of LEAKS) expect(body, `answer leaks ${leak}: ${body.slice(0, 300)}`).not.toMatch(leak);
}
