import { describe, expect, it } from 'vitest';
import { MSG } from '../messages';
import { emailSchema, loginInput, nameSchema, registerBusinessInput } from './auth';
import { sendContactMessageInput } from './contact';
import { updateBusinessProfileInput } from './settings';
import { safeText } from './text';

/** The first error message of `schema` on `value`, or null when it is accepted. */
function refusal(
  schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } },
  value: unknown,
) {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error?.issues[0]?.message ?? '');
}

const oneLineField = safeText();
const multiLineField = safeText({ multiline: true });

describe('safeText: control characters', () => {
  it.each([
    ['ESC', '\u001b'],
    ['BEL', '\u0007'],
    ['DEL', '\u007f'],
    ['C1 CSI', '\u009b'],
    ['C1 APC', '\u009f'],
  ])('a one-line field refuses %s with the control-character message', (_label, c) => {
    expect(refusal(oneLineField, `Salon${c}[31m`)).toBe(MSG.textControlCharacters);
  });

  it.each([
    ['VT', '\u000b'],
    ['FF', '\u000c'],
    ['NEL', '\u0085'],
    ['line separator', '\u2028'],
    ['paragraph separator', '\u2029'],
    ['CR', '\r'],
    ['LF', '\n'],
  ])('a one-line field refuses the line break %s as one', (_label, c) => {
    expect(refusal(oneLineField, `Salon${c}Studio`)).toBe(MSG.textOneLine);
  });

  it('a one-line field keeps tab, right-to-left letters, marks and ordinary text', () => {
    for (const text of ['Cut\tColour', 'صالون \u200Fالشعر', 'Café Ω 😀', 'Cut & "Colour" <Studio>', 'a\u00a0b']) {
      expect(refusal(oneLineField, text)).toBeNull();
    }
  });

  it('a multi-line field keeps tab, CR, LF and the Unicode separators but refuses the other controls', () => {
    expect(refusal(multiLineField, 'First\r\nSecond\n\tThird\u2028Fourth')).toBeNull();
    for (const c of ['\u001b', '\u000b', '\u000c', '\u0085', '\u0007', '\u007f', '\u009b']) {
      expect(refusal(multiLineField, `First${c}Second`)).toBe(MSG.textControlCharacters);
    }
  });

  it('passwords are taken as typed', () => {
    expect(loginInput.safeParse({ email: 'a@example.test', password: 'pass\u001bword\u0085' }).success).toBe(true);
  });

  it('the product schemas refuse them: names, emails, business fields, settings, contact', () => {
    expect(refusal(nameSchema, 'Cara\u001b Customer')).toBe(MSG.textControlCharacters);
    expect(refusal(emailSchema, 'cara\u009b@example.test')).toBe(MSG.textControlCharacters);
    expect(refusal(emailSchema, 'cara\u0085@example.test')).toBe(MSG.textOneLine);
    const business = registerBusinessInput.shape;
    expect(refusal(business.businessName, 'Salon\u000bStudio')).toBe(MSG.textOneLine);
    expect(refusal(business.address, '1 High St\u001b')).toBe(MSG.textControlCharacters);
    expect(refusal(business.description, 'Cuts\n\u001b[2Jand colour')).toBe(MSG.textControlCharacters);
    expect(refusal(business.description, 'Cuts\r\nand colour')).toBeNull();
    const settings = updateBusinessProfileInput.shape;
    expect(refusal(settings.contactName, 'Sam\u0085Owner')).toBe(MSG.textOneLine);
    expect(refusal(settings.email, 'hello\u001b@example.test')).toBe(MSG.textControlCharacters);
    expect(refusal(sendContactMessageInput.shape.subject, 'Hello\u0085there')).toBe(MSG.textControlCharacters);
  });
});
