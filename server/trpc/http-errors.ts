/** tRPC-shaped error bodies for answers given before tRPC runs, so the client reads them like any other. */
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import superjson from 'superjson';

/** The body tRPC would send for `code` and `message` at `url` (an array for a batch), and its `httpStatus`. */
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
