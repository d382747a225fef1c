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

/**
 * Invisible format characters a meta description has no use for: the bidirectional controls
 * (`BIDI_CONTROL`), the direction marks (U+200E, U+200F, U+061C), zero-width space, word joiner
 * and the invisible operators (U+200B, U+2060-U+2064), the deprecated format controls
 * (U+206A-U+206F) and the byte order mark (U+FEFF). Joiners (U+200C, U+200D) stay: some scripts and
 * emoji need them.
 */
const FORMAT_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B\u2060-\u2064\u206A-\u206F\uFEFF]/g;

/** The length a search result or link preview shows of a description, in characters. */
export const META_DESCRIPTION_MAX = 160;

/**
 * A multi-line text (a business's description) as a page's `<meta name="description">` and
 * `og:description`: one line (`oneLine`: line breaks and control characters made spaces), the
 * invisible format characters of `FORMAT_CONTROLS` removed, and at most `META_DESCRIPTION_MAX`
 * characters (code points), cut after the last whole word that fits and ended with '…'.
 * May return '' (a text of nothing but such characters).
 */
export function metaDescription(text: string): string {
  const line = oneLine(text.replace(FORMAT_CONTROLS, ''));
  const chars = Array.from(line);
  if (chars.length <= META_DESCRIPTION_MAX) return line;
  const kept = chars.slice(0, META_DESCRIPTION_MAX - 1).join('');
  const lastSpace = kept.lastIndexOf(' ');
  // A word longer than half the room is cut rather than dropping most of the text.
  const words = lastSpace > kept.length / 2 ? kept.slice(0, lastSpace) : kept;
  return `${words.trimEnd()}…`;
}
