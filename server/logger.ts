/**
 * The process logger (pino). Never logs secrets: URLs lose their tokens, cookies and credentials are
 * redacted, errors drop SQL, parameters and echoed values (docs/decisions/0032, 0043).
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
 * `url` (path and query) without its secrets: a token path segment, token query parameters, a page
 * address's position or place (SECRET_PARAMS), and the whole input of a tRPC GET that carries a token,
 * an email address or a customer's whereabouts (docs/decisions/0081).
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

/** Most requests repeat a recent URL, and redacting decodes and searches the whole query. */
const redactedUrls = new Map<string, string>();
const MAX_REMEMBERED_URLS = 1000;
const MAX_REMEMBERED_URL = 512;

/**
 * /calendar/{token}.ics and /unsubscribe/{token} (server/http/plain-routes.ts). Any letter case and
 * repeated leading slashes match, since a URL is logged whether or not it found its route.
 */
const TOKEN_PATH = /^(\/+(?:calendar|unsubscribe)\/)[^/?#]+?((?:\.ics)?(?:[/?#]|$))/i;

/**
 * Query parameters whose value is never logged: emailed tokens, and a customer's position or typed
 * place in a page's address (/discover's `lat`, `lng`, `place`; client/features/discover/search-params.ts).
 */
const SECRET_PARAMS = new Set([
  'token',
  'access_token',
  'refresh_token',
  'lat',
  'lng',
  'latitude',
  'longitude',
  'place',
]);

/** Whether the query key `key` (as written, maybe percent-encoded) names a SECRET_PARAMS parameter. */
function isSecretParam(key: string): boolean {
  return SECRET_PARAMS.has(decoded(key.replaceAll('+', ' ')).trim().toLowerCase());
}

function redactTokens(url: string): string {
  return url
    .replace(TOKEN_PATH, '$1[redacted]$2')
    .replace(/([?&])([^=&#]*)=([^&#]*)/g, (all, sep: string, key: string) =>
      isSecretParam(key) ? `${sep}${key}=[redacted]` : all,
    )
    .replace(/([?&]input=)([^&#]*)/gi, (all, key: string, value: string) =>
      /token|"email"|"latitude"|"longitude"|"place"/i.test(decoded(value)) ? `${key}[redacted]` : all,
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

/** A message without email addresses, argon2 hashes, or anything past 300 characters. */
function scrubMessage(message: string): string {
  return message
    .replace(/\$argon2[a-z0-9$=,+/.-]*/gi, '[redacted]')
    .replace(/[^\s"'()=]+@[^\s"'()=]+/g, '[redacted]')
    .slice(0, 300);
}

/**
 * The `err` serializer: keeps an error's class, message, stack frames, SAFE_ERROR_FIELDS and `cause`;
 * drops whatever can carry data, such as a query error's SQL and parameters and PostgreSQL's `detail`
 * ('Key (email)=(…) already exists').
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
 * One 'request' line per request once the response is sent (a live stream's when it ends), replacing
 * Fastify's 'incoming request' / 'request completed' pair (docs/decisions/0043). `responseTimeMs` in ms.
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
 * Creates the logger: pretty-printed when `pretty`, else JSON lines to `destination` or to stdout.
 * Stdout is written asynchronously, so call `flushLogger` before exiting.
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

/** Buffered, because a write(2) per line costs more CPU than the line itself (docs/decisions/0057). */
const LOG_WRITE_BYTES = 4096;
const LOG_FLUSH_MS = 250;

/** The asynchronous stdout destination of each logger `createLogger` made with one. */
const asyncDestinations = new WeakMap<Logger, ReturnType<typeof pino.destination>>();

/**
 * The last call before exit: resolves once every buffered line reached stdout; later lines are lost.
 * Never rejects: a failed write must not stop a shutdown.
 */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    const stdout = asyncDestinations.get(logger);
    try {
      if (!stdout) return logger.flush(() => resolve());
      // end() flushes after the write in flight, then emits 'close'; it throws if already ended.
      stdout.once('close', () => resolve());
      stdout.once('error', () => resolve());
      stdout.end();
    } catch {
      resolve();
    }
  });
}
