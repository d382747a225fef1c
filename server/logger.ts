/**
 * The process logger (pino): JSON in production, pretty in a terminal. Never logs secrets: request
 * URLs lose their tokens, cookies and credentials are redacted, and errors go through one
 * serializer that drops SQL, parameters and the values a driver error echoes (docs/decisions/0032).
 * JSON lines go to stdout through an asynchronous destination, written out by `flushLogger` on
 * shutdown (docs/decisions/0043).
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type Logger } from 'pino';

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * `url` (path and query) without its secrets: the token segment of a path that carries one
 * (/calendar/{token}.ics becomes /calendar/[redacted].ics, /unsubscribe/{token} becomes
 * /unsubscribe/[redacted]), the one-time tokens email links carry in the query (e.g.
 * /auth-redirect?token=…), and the whole input of a tRPC GET whose input carries a token (e.g.
 * auth.checkResetToken?input={"json":{"token":…}}) or a customer's whereabouts (a Discover
 * search's position or typed place: never logged, docs/decisions/0081). Everything else is kept
 * as it came.
 */
export function redactUrl(url: string): string {
  let redacted = redactedUrls.get(url);
  if (redacted === undefined) {
    redacted = redactTokens(url);
    if (url.length <= MAX_REMEMBERED_URL) {
      if (redactedUrls.size >= MAX_REMEMBERED_URLS) redactedUrls.clear();
      redactedUrls.set(url, redacted);
    }
  }
  return redacted;
}

/**
 * URLs `redactUrl` answered recently: most requests repeat a URL seen before (the same public page,
 * the same dashboard lists), and the redaction decodes and searches the whole query each time.
 */
const redactedUrls = new Map<string, string>();
const MAX_REMEMBERED_URLS = 1000;
const MAX_REMEMBERED_URL = 512;

/**
 * Paths whose segment after the prefix is a secret: the calendar feed (GET /calendar/{token}.ics)
 * and one-click unsubscribe (POST /unsubscribe/{token}, and the client's page at the same path),
 * server/plain-routes.ts. Any letter case and repeated leading slashes are matched, since a URL is
 * logged whether or not it found its route; a trailing '.ics' is kept.
 */
const TOKEN_PATH = /^(\/+(?:calendar|unsubscribe)\/)[^/?#]+?((?:\.ics)?(?:[/?#]|$))/i;

function redactTokens(url: string): string {
  return url
    .replace(TOKEN_PATH, '$1[redacted]$2')
    .replace(/([?&](?:token|access_token|refresh_token)=)[^&#]*/gi, '$1[redacted]')
    .replace(/([?&]input=)([^&#]*)/gi, (all, key: string, value: string) =>
      /token|"latitude"|"longitude"|"place"/i.test(decoded(value)) ? `${key}[redacted]` : all,
    );
}

/** Driver-error fields that name things (SQLSTATE, constraint, table), never values. */
const SAFE_ERROR_FIELDS = [
  'code',
  'constraint',
  'table',
  'column',
  'schema',
  'routine',
  'severity',
  'statusCode',
] as const;
const MAX_CAUSE_DEPTH = 4;

/**
 * A message without the values it may echo: quoted strings that look like an email address or a
 * password hash, argon2 hashes anywhere, and anything past 300 characters.
 */
function scrubMessage(message: string): string {
  return message
    .replace(/\$argon2[a-z0-9$=,+/.-]*/gi, '[redacted]')
    .replace(/[^\s"'()=]+@[^\s"'()=]+/g, '[redacted]')
    .slice(0, 300);
}

/**
 * The `err` serializer of every log line: keeps an error's class, message, stack frames and the
 * driver's naming fields (code, constraint, table, ...), and follows `cause`. It drops everything
 * that can carry data: drizzle's DrizzleQueryError (`query`, `params`, and a message made of the
 * SQL and its parameters), PostgreSQL's `detail` and `where` ('Key (email)=(…) already exists'),
 * and any other own property. Email addresses and argon2 hashes left in a message are redacted.
 */
export function serializeError(value: unknown, depth = 0): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) {
    return { type: typeof value, message: scrubMessage(String(value)) };
  }
  const err = value as Record<string, unknown>;
  const type = (value as { constructor?: { name?: string } }).constructor?.name ?? 'Object';
  const rawMessage = typeof err.message === 'string' ? err.message : '';
  // drizzle wraps driver errors as 'Failed query: <sql>\nparams: <values>', with `query`/`params`.
  const isQueryError = ('query' in err && 'params' in err) || rawMessage.startsWith('Failed query:');
  const message = isQueryError ? 'Failed query' : scrubMessage(rawMessage);
  const out: Record<string, unknown> = { type, message };
  for (const field of SAFE_ERROR_FIELDS) {
    const v = err[field];
    if (typeof v === 'string' || typeof v === 'number') out[field] = v;
  }
  if (typeof err.stack === 'string') {
    // The stack's first line repeats the message: keep only the frames.
    const frames = err.stack.split('\n').filter((line) => /^\s+at /.test(line));
    out.stack = [`${type}: ${message}`, ...frames].join('\n');
  }
  if (err.cause !== undefined && depth < MAX_CAUSE_DEPTH) out.cause = serializeError(err.cause, depth + 1);
  return out;
}

/**
 * Fastify's request log as one line per request, written when the response has been sent (a
 * live-update stream's when it ends): `{ method, url, statusCode, responseTimeMs }` with message
 * 'request', the URL without its tokens (`redactUrl`), the time in milliseconds (0.1 ms steps).
 * At level info; error with the `err` when the response failed (e.g. the socket broke). Replaces
 * Fastify's 'incoming request' and 'request completed' pair (docs/decisions/0043); Fastify's
 * other lines (stream and serializer errors) are kept.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      statusCode: reply.statusCode,
      responseTimeMs: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) request.log.error({ ...line, err: error }, 'request');
    else request.log.info(line, 'request');
  }
}

interface LoggedRequest {
  method?: string;
  url?: string;
  hostname?: string;
  ip?: string;
}

/**
 * Creates the logger at `level`: pretty-printed (pino-pretty, a worker thread) when `pretty`, else
 * JSON lines to `destination` (tests) or to stdout. Stdout is written asynchronously: a line is
 * appended to a buffer that is written out in the background, so logging never blocks a request
 * on a write(2); call `flushLogger` before exiting (pino also writes the rest synchronously on
 * process exit).
 */
export function createLogger(level: string, pretty: boolean, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    serializers: {
      err: serializeError,
      error: serializeError,
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: req.url ? redactUrl(req.url) : undefined,
        host: req.hostname,
        remoteAddress: req.ip,
      }),
    },
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        '*.password',
        '*.passwordHash',
        '*.token',
      ],
      censor: '[redacted]',
    },
  };
  if (destination) return pino(options, destination);
  if (pretty) {
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } },
    });
  }
  const stdout = pino.destination({
    dest: 1,
    sync: false,
    minLength: LOG_WRITE_BYTES,
    periodicFlush: LOG_FLUSH_MS,
  });
  const logger = pino(options, stdout);
  asyncDestinations.set(logger, stdout);
  return logger;
}

/**
 * Stdout is written once this many bytes are buffered (some 20 request lines), or at the latest
 * LOG_FLUSH_MS after a line was logged: a write(2) per line cost more CPU than the line itself
 * (docs/decisions/0057).
 */
const LOG_WRITE_BYTES = 4096;
const LOG_FLUSH_MS = 250;

/** The asynchronous stdout destination of each logger `createLogger` made with one. */
const asyncDestinations = new WeakMap<Logger, ReturnType<typeof pino.destination>>();

/**
 * The last call before the process exits: writes out every line `logger` still buffers, including
 * a write in flight, and resolves once all reached stdout (a pretty or test logger: once its
 * stream flushed). Lines logged afterwards are not written. Never rejects: a failed write must
 * not stop a shutdown.
 */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    const stdout = asyncDestinations.get(logger);
    try {
      if (!stdout) return logger.flush(() => resolve());
      // end() writes what is buffered after the write in flight, then emits 'close' (fd 1 stays
      // open); on a destination already ended it throws, and there is nothing left to write.
      stdout.once('close', () => resolve());
      stdout.once('error', () => resolve());
      stdout.end();
    } catch {
      resolve();
    }
  });
}
