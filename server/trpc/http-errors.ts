/**
 * tRPC-shaped HTTP error bodies for answers given before tRPC runs (the coarse mutation rate
 * limit in app.ts), so the tRPC client reads them like any procedure error: the shape of the
 * error formatter in trpc.ts, wrapped by superjson (`{ json: shape }`), and for a batch request
 * (`?batch=1`, procedure paths comma-separated in the URL) one entry per call.
 */
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import superjson from 'superjson';

/**
 * The body tRPC would send for `code` and `message` at `url` (a request path under /trpc/ with
 * its query string). Returns an array for batch requests, one object otherwise; the HTTP status to
 * send with it is `httpStatus`.
 */
export function trpcErrorBody(url: string, code: TRPC_ERROR_CODE_KEY, message: string) {
  const { pathname, searchParams } = new URL(url, 'http://localhost');
  let paths: string[];
  try {
    paths = decodeURIComponent(pathname.replace(/^\/trpc\/?/, '')).split(',');
  } catch {
    paths = [''];
  }
  const httpStatus = getHTTPStatusCodeFromError(new TRPCError({ code }));
  const entry = (path: string) => ({
    error: superjson.serialize({
      message,
      code: TRPC_ERROR_CODES_BY_KEY[code],
      data: { code, httpStatus, path: path || undefined },
    }),
  });
  const body = searchParams.get('batch') === '1' ? paths.map(entry) : entry(paths[0] ?? '');
  return { httpStatus, body };
}
