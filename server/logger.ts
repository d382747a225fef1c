/** The process logger (pino): JSON in production, pretty in a terminal; never logs secrets. */
import pino, { type Logger } from 'pino';

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Hides one-time tokens that email links carry in the query (e.g. /auth-redirect?token=…), and the
 * whole input of a tRPC GET whose input carries a token (e.g. auth.checkResetToken?input={"json":
 * {"token":…}}).
 */
export function redactUrl(url: string): string {
  return url
    .replace(/([?&](?:token|access_token|refresh_token)=)[^&#]*/gi, '$1[redacted]')
    .replace(/([?&]input=)([^&#]*)/gi, (all, key: string, value: string) =>
      /token/i.test(decoded(value)) ? `${key}[redacted]` : all,
    );
}

interface LoggedRequest {
  method?: string;
  url?: string;
  hostname?: string;
  ip?: string;
}

/** Creates the logger. `destination` is for tests (default: stdout). */
export function createLogger(level: string, pretty: boolean, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    serializers: {
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
  return pino(options);
}
