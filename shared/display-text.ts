/**
 * Text people typed, where it is shown on one line to someone else: a page's `<title>` and
 * og:title, an email's subject, a calendar's name and its events' titles. Input schemas refuse the
 * characters that could spoof such a line (shared/schemas/text.ts); `oneLine` is the last guard
 * where the text leaves, so values stored before those refusals, or built from several fields, can
 * neither break a header nor reorder what follows them.
 */

/**
 * The Unicode bidirectional embedding, override and isolate controls: U+202A-U+202E (LRE, RLE,
 * PDF, LRO, RLO) and U+2066-U+2069 (LRI, RLI, FSI, PDI). An unmatched one reverses or reorders the
 * text after it ('invoice\u202Efdp.exe' shows as 'invoiceexe.pdf'), so a name can disguise what
 * follows it. Right-to-left letters themselves are not among them.
 */
export const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;

const BIDI_CONTROLS = new RegExp(BIDI_CONTROL.source, 'g');
/** Whitespace (line and paragraph separators included) and control characters (CR, LF, NEL, tab, C0, C1). */
const BREAKS = /[\s\p{Cc}]+/gu;

/**
 * `text` as one line: bidirectional controls (`BIDI_CONTROL`) removed, every run of whitespace,
 * line or paragraph separators and control characters made a single space, the ends trimmed.
 * 'Cut\r\n\u202Etrim ' becomes 'Cut trim'. May return '' (text of nothing but such characters).
 */
export function oneLine(text: string): string {
  return text.replace(BIDI_CONTROLS, '').replace(BREAKS, ' ').trim();
}
