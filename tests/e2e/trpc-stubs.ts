/**
 * Changing one procedure's answer inside the browser's real tRPC traffic, for the screens our own
 * server never produces by itself (an unknown role, a failed list, a slot whose time has passed).
 * The request still reaches the real server; only `path`'s entry of the batch answer is replaced,
 * so every other procedure in the same batch keeps its real answer. superjson wraps each result
 * as { result: { data: { json } } } and each error as { error: { json: { message, code, data } } }.
 */
import type { Page, Route } from '@playwright/test';
import { MSG } from '../../shared/messages';

/** The procedures of a tRPC request URL ('/trpc/auth.me,businesses.bySlug?batch=1…'). */
export function proceduresOf(url: string): string[] {
  return decodeURIComponent(new URL(url).pathname.replace(/^\/trpc\//, '')).split(',');
}

/** Matches a tRPC request (batched or not) that includes `path`. */
function callsProcedure(path: string) {
  return (url: URL) => url.pathname.startsWith('/trpc/') && proceduresOf(url.href).includes(path);
}

/**
 * What Playwright throws when a route is still being worked on after its page navigated, its
 * context closed or its fetched response was released: the browser no longer waits for that
 * answer, so nothing is left to fulfil.
 */
const TORN_DOWN = /has been disposed|has been closed|Target closed|Route is already handled|Request context disposed/i;

/**
 * Runs a route handler's `work`. When the route was torn down mid-way (see TORN_DOWN) the route
 * ends quietly instead of failing the test with an unrelated error; any other error still fails.
 */
export async function unlessTornDown(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (err instanceof Error && TORN_DOWN.test(err.message)) return;
    throw err;
  }
}

/**
 * Sends the request to the real server and lets `change` edit `path`'s entry of the answer. The
 * status is `status` when given, else what the server would send for the edited batch.
 */
export function withEntry(route: Route, path: string, change: (entry: unknown) => unknown, status?: number) {
  return unlessTornDown(async () => {
    const response = await route.fetch();
    const names = proceduresOf(route.request().url());
    const body = (await response.json()) as unknown[];
    const i = names.indexOf(path);
    body[i] = change(body[i]);
    await route.fulfill({ response, status: status ?? batchStatus(body), json: body });
  });
}

function batchStatus(body: unknown[]): number {
  // As tRPC does: one status shared by every entry is the answer's; mixed statuses are 207.
  const statuses = new Set(
    body.map(
      (e) => (e as { error?: { json?: { data?: { httpStatus?: number } } } }).error?.json?.data?.httpStatus ?? 200,
    ),
  );
  return statuses.size === 1 ? [...statuses][0]! : 207;
}

/** Rewrites `path`'s successful answer (its superjson `json`) with `edit`, for every call. */
export async function rewriteAnswer<T>(page: Page, path: string, edit: (answer: T) => T) {
  await page.route(callsProcedure(path), (route) =>
    withEntry(route, path, (entry) => {
      const data = (entry as { result?: { data: { json: T } } }).result?.data;
      if (data) data.json = edit(data.json);
      return entry;
    }),
  );
}

export interface StubError {
  code?: string;
  httpStatus?: number;
  message?: string;
  title?: string;
}

/**
 * While `failing()` is true, `path` answers with an error in our server's error shape (default:
 * INTERNAL_SERVER_ERROR with the generic message); otherwise the request passes untouched. A
 * failing query still reaches the server (the rest of its batch is real); a failing mutation
 * never does, so nothing changes behind the stubbed answer.
 */
export async function failProcedure(page: Page, path: string, failing: () => boolean, error: StubError = {}) {
  const { code = 'INTERNAL_SERVER_ERROR', httpStatus = 500, message = MSG.generic, title } = error;
  const entry = {
    error: {
      json: { message, code: -32603, data: { code, httpStatus, path, ...(title ? { title } : {}) } },
    },
  };
  await page.route(callsProcedure(path), async (route) => {
    if (!failing()) return route.fallback();
    const names = proceduresOf(route.request().url());
    if (route.request().method() !== 'GET') {
      // A mutation must not reach the server: every procedure of the batch gets the error.
      const body = names.map((name) => ({
        error: { json: { ...entry.error.json, data: { ...entry.error.json.data, path: name } } },
      }));
      return unlessTornDown(() => route.fulfill({ status: names.length > 1 ? 207 : httpStatus, json: body }));
    }
    await withEntry(route, path, () => entry);
  });
}
