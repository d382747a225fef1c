/** What went wrong with an email, as the sign-up screens tell it: rate limit, set-up, the address, or other. */
export type DeliveryIssue = 'limit' | 'service' | 'delivery' | 'other';

const LIMIT = /rate_limit_exceeded|quota_exceeded|too many requests|\b429\b/i;
const SERVICE =
  /missing_api_key|invalid_api_key|restricted_api_key|invalid_from_address|invalid_access|application_error|internal_server_error|fetch failed|ECONNREFUSED|ENOTFOUND|ETIMEDOUT/i;
const DELIVERY = /validation_error|invalid_to|recipient|bounce|rejected/i;

/** Classifies an outbox row's `last_error` (e.g. 'Resend: validation_error: …'); null for no error. */
export function classifyDeliveryError(lastError: string | null): DeliveryIssue | null {
  if (!lastError) return null;
  if (LIMIT.test(lastError)) return 'limit';
  if (SERVICE.test(lastError)) return 'service';
  if (DELIVERY.test(lastError)) return 'delivery';
  return 'other';
}
