/**
 * Domain errors thrown by services (no tRPC imports here). A tRPC middleware maps `code` to the
 * tRPC code; `message` (and the optional toast `title`) are the specs' texts shown to the user.
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
