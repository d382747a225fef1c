import {
  convertCssVariables,
  createTheme,
  darken,
  DEFAULT_THEME,
  defaultCssVariablesResolver,
  mergeMantineTheme,
  type ConvertCSSVariablesInput,
  type CSSVariablesResolver,
  type MantineColorsTuple,
} from '@mantine/core';

const fontStack =
  'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';

/** Calm teal brand, slate text: clean and trustworthy. */
const brand: MantineColorsTuple = [
  '#e6fcf5',
  '#c3fae8',
  '#96f2d7',
  '#63e6be',
  '#38d9a9',
  '#20c997',
  '#12b886',
  '#0ca678',
  '#099268',
  '#087f5b',
];

export const theme = createTheme({
  primaryColor: 'brand',
  // Shade 9 keeps white on filled buttons above 4.5:1 (WCAG AA); see client/styles.css for text.
  primaryShade: { light: 9, dark: 6 },
  colors: { brand },
  fontFamily: fontStack,
  headings: { fontFamily: fontStack, fontWeight: '700' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  components: {
    Card: { defaultProps: { withBorder: true, radius: 'lg', padding: 'lg' } },
    Paper: { defaultProps: { radius: 'lg' } },
    Button: { defaultProps: { radius: 'md' } },
    // Mantine's close button has no accessible name of its own.
    Modal: { defaultProps: { centered: true, radius: 'lg', closeButtonProps: { 'aria-label': 'Close' } } },
  },
});

/** Mantine's other colours, used for statuses (badges, alerts, light buttons) across the app. */
const STATUS_COLORS = [
  'red',
  'pink',
  'grape',
  'violet',
  'indigo',
  'blue',
  'cyan',
  'teal',
  'green',
  'lime',
  'yellow',
  'orange',
] as const;

/**
 * Shade 9 darkened by a third: at least 5:1 on the colour's light background (shades 1 and 2) for
 * every colour above; Mantine's own shade 9 is below 4.5:1 for yellow, orange, green, red and lime.
 */
const darker = (color: (typeof STATUS_COLORS)[number]) => darken(DEFAULT_THEME.colors[color][9], 0.35);

/**
 * WCAG AA contrast (4.5:1): secondary ('dimmed') text, light badges and outline badges use darker
 * shades than Mantine's defaults; so do the light and outline variants of the status colours. Checked by the axe-core journey (tests/e2e/a11y.spec.ts).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    ...Object.fromEntries(
      STATUS_COLORS.flatMap((c) => [
        [`--mantine-color-${c}-light-color`, darker(c)],
        [`--mantine-color-${c}-outline`, darker(c)],
      ]),
    ),
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-brand-light': 'var(--mantine-color-brand-0)',
    '--mantine-color-brand-light-hover': 'var(--mantine-color-brand-1)',
    '--mantine-color-brand-light-color': 'var(--mantine-color-brand-9)',
    '--mantine-primary-color-light': 'var(--mantine-color-brand-0)',
    '--mantine-primary-color-light-hover': 'var(--mantine-color-brand-1)',
    '--mantine-primary-color-light-color': 'var(--mantine-color-brand-9)',
    '--mantine-color-gray-outline': 'var(--mantine-color-gray-7)',
  },
  dark: {},
});

/**
 * The theme's CSS variables as a style sheet: what MantineProvider's `withCssVariables` would put in
 * a <style> of every page, computed once, at build time, into the app's CSS (the `theme-variables`
 * plugin in vite.config.ts; ADR 0107). Like Mantine, it leaves out what
 * @mantine/core/styles/default-css-variables.css already sets. Output: CSS text for :root and :host.
 */
export function themeCssVariables(): string {
  const merged = mergeMantineTheme(DEFAULT_THEME, theme);
  const ours = defaultCssVariablesResolver(merged);
  const extra = cssVariablesResolver(merged);
  const defaults = defaultCssVariablesResolver(DEFAULT_THEME);
  const changed = (part: keyof ConvertCSSVariablesInput) => {
    const before: Record<string, string> = defaults[part];
    return Object.fromEntries(
      Object.entries({ ...ours[part], ...extra[part] }).filter(([name, value]) => before[name] !== value),
    );
  };
  return convertCssVariables({ variables: changed('variables'), light: changed('light'), dark: changed('dark') });
}
