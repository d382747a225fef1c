import { describe, expect, it } from 'vitest';
import { BIDI_CONTROL, META_DESCRIPTION_MAX, metaDescription, oneLine } from './display-text';

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

describe('metaDescription', () => {
  it('flattens a multi-line description to one line without bidi or format controls', () => {
    expect(metaDescription('Cuts\r\n\r\nand\u2028colour\u2029\u0085today\tonly')).toBe('Cuts and colour today only');
    expect(metaDescription('\u202EHair\u2066 salon\u200B \u200Fby \uFEFFSam\u2069')).toBe('Hair salon by Sam');
    expect(metaDescription('\u202E\r\n')).toBe('');
  });

  it('keeps right-to-left letters, joiners and emoji', () => {
    for (const text of ['صالون الشعر', 'می\u200Cخواهم', 'Family 👨\u200D👩\u200D👧 cuts']) {
      expect(metaDescription(text)).toBe(text);
    }
  });

  it('caps a long description after the last whole word, ended with an ellipsis', () => {
    const long = `${'Colour '.repeat(40)}end`;
    const meta = metaDescription(long);
    expect(Array.from(meta).length).toBeLessThanOrEqual(META_DESCRIPTION_MAX);
    expect(meta).toMatch(/^(Colour )+Colour…$/);
    const exact = 'a'.repeat(META_DESCRIPTION_MAX);
    expect(metaDescription(exact)).toBe(exact);
    const emoji = '😀'.repeat(META_DESCRIPTION_MAX + 5);
    expect(metaDescription(emoji)).toBe(`${'😀'.repeat(META_DESCRIPTION_MAX - 1)}…`);
  });
});
