/**
 * Random secrets and their hashes (docs/decisions/0001): 160-bit tokens, base32 in cookies and links, only the
 * hex SHA-256 stored.
 */
import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';

/** A new 160-bit random token, base32 lower case without padding (32 characters). */
export function generateToken(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

/** Hex SHA-256 of a token: the value stored and looked up in the database. */
export function hashToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}
