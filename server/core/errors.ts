/**
 * The one error services and procedure guards throw (no tRPC imports here). The guard middleware
 * at the root of every procedure (guardedProcedure in server/trpc/trpc.ts) turns it into the tRPC
 * error of the same `code`; `message` and the optional toast `title` (texts from
 * shared/messages.ts) reach the user as they are.
 */
export type DomainErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PRECONDITION_FAILED'
  | 'UNPROCESSABLE_CONTENT'
  | 'TOO_MANY_REQUESTS';

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** `details`: extra strings the client may show (e.g. the role of a login refused for an unconfirmed email). */
    readonly options: { title?: string; field?: string; details?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

/**
 * Seconds an answer of 503 (the database away: unreachable, restarting or refusing connections,
 * docs/decisions/0102) tells its client to wait before trying again: its Retry-After.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;
