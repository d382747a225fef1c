/** Random secrets and their hashes (docs/decisions/0001). */
import { createHash } from 'node:crypto';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';

/** A new 160-bit random token, base32 lower case without padding (32 characters). */
export function generateToken(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

/** Hex SHA-256 of a token, as stored; Node's native hash, as each cookie request computes one (docs/decisions/0069). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
