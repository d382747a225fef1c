import { describe, expect, it } from 'vitest';
import { generateToken, hashToken } from './tokens';

describe('tokens', () => {
  it('hashes a token to the lower-case hex SHA-256 of its UTF-8 bytes', () => {
    // FIPS 180-2 test vector, and a non-ASCII input (bytes c3 a9).
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashToken('\u00e9')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });

  it('makes 32-character base32 tokens that differ', () => {
    const a = generateToken();
    expect(a).toMatch(/^[a-z2-7]{32}$/);
    expect(generateToken()).not.toBe(a);
  });
});
