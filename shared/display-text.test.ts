import { describe, expect, it } from 'vitest';
import { BIDI_CONTROL, oneLine } from './display-text';

describe('oneLine', () => {
  it.each([
    ['CR LF', 'Cut\r\nColour', 'Cut Colour'],
    ['lone CR and LF', 'Cut\rand\nColour', 'Cut and Colour'],
    ['line and paragraph separators', 'Cut\u2028and\u2029Colour', 'Cut and Colour'],
    ['NEL, vertical tab, form feed, tab', 'Cut\u0085and\u000b\u000c\tColour', 'Cut and Colour'],
    ['other C0 and C1 controls, DEL', 'Cut\u0000\u001b\u007f\u009fColour', 'Cut Colour'],
    ['runs of spaces around a break', 'Cut  \r\n  Colour', 'Cut Colour'],
    ['leading and trailing breaks', '\r\n Cut \n', 'Cut'],
    ['nothing but breaks', '\r\n\u2028', ''],
  ])('makes %s one space', (_label, text, expected) => {
    expect(oneLine(text)).toBe(expected);
  });

  it('removes every bidirectional embedding, override and isolate control', () => {
    const controls = '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069';
    expect(oneLine(`invoice${controls}fdp.exe`)).toBe('invoicefdp.exe');
    expect(oneLine(`\u202E Salon \u2066`)).toBe('Salon');
    for (const c of controls) expect(BIDI_CONTROL.test(c)).toBe(true);
  });

  it('keeps right-to-left letters, marks and ordinary text as they are', () => {
    for (const text of ['صالون الشعر', 'מספרה', 'Café Ω 😀', 'a\u200Fb', 'Cut & "Colour" <Studio>']) {
      expect(oneLine(text)).toBe(text);
      expect(BIDI_CONTROL.test(text)).toBe(false);
    }
  });
});
