/**
 * What went wrong with an email, in the terms the sign-up screens use: the
 * provider's rate limit ('Email Limit Reached'), its set-up ('Email Service Issue'), the address
 * ('Email Delivery Issue'), or anything else ('Email Issue').
 */
export type DeliveryIssue = 'limit' | 'service' | 'delivery' | 'other';

const LIMIT = /rate_limit_exceeded|quota_exceeded|too many requests|\b429\b/i;
const SERVICE =
  /missing_api_key|invalid_api_key|restricted_api_key|invalid_from_address|invalid_access|application_error|internal_server_error|fetch failed|ECONNREFUSED|ENOTFOUND|ETIMEDOUT/i;
const DELIVERY = /validation_error|invalid_to|recipient|bounce|rejected/i;

/**
 * Classifies an outbox row's `last_error` text (as written by the dispatcher, e.g.
 * 'Resend: validation_error: …'). Input: the error text, or null when none was recorded.
 * Output: the issue, or null for no error.
 */
export function classifyDeliveryError(lastError: string | null): DeliveryIssue | null {
  if (!lastError) return null;
  if (LIMIT.test(lastError)) return 'limit';
  if (SERVICE.test(lastError)) return 'service';
  if (DELIVERY.test(lastError)) return 'delivery';
  return 'other';
}
