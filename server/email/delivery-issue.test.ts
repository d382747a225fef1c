import { describe, expect, it } from 'vitest';
import { classifyDeliveryError } from './delivery-issue';

describe('classifyDeliveryError', () => {
  it.each([
    [null, null],
    ['Resend: rate_limit_exceeded: Too many requests', 'limit'],
    ['Resend: daily_quota_exceeded: You have reached your daily email sending quota', 'limit'],
    ['Resend: invalid_api_key: API key is invalid', 'service'],
    ['Resend: invalid_from_address: Invalid `from` field', 'service'],
    ['fetch failed', 'service'],
    ['Resend: validation_error: Invalid `to` field', 'delivery'],
    ['Resend: unknown: no data', 'other'],
  ] as const)('%s → %s', (error, issue) => {
    expect(classifyDeliveryError(error)).toBe(issue);
  });
});
