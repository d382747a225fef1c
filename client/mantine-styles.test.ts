/**
 * Every Mantine component the client renders has its stylesheets: in client/mantine-styles.ts (the
 * first load) or imported by the module that uses it (loaded with that lazy chunk; ADR 0055). A
 * missing one renders the component unstyled, only on the screens that use it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const clientDir = path.dirname(new URL(import.meta.url).pathname);
const stylesDir = path.join(clientDir, '../node_modules/@mantine/core/styles');

/** Stylesheets a component needs besides its own (Mantine builds it from these parts). */
const PARTS: Record<string, string[]> = {
  Modal: ['Overlay', 'ModalBase', 'Modal'],
  TextInput: ['Input'],
  NativeSelect: ['Input'],
  Textarea: ['Input'],
  Select: ['Popover', 'Input', 'Combobox'],
  PasswordInput: ['Input', 'PasswordInput'],
  Radio: ['InlineInput', 'Radio', 'RadioIndicator'],
  Switch: ['InlineInput', 'Switch'],
  Checkbox: ['InlineInput', 'Checkbox', 'CheckboxIndicator'],
};

/** The stylesheets `component` needs (those that exist in @mantine/core/styles). */
function stylesheetsOf(component: string): string[] {
  const own = existsSync(path.join(stylesDir, `${component}.css`)) ? [component] : [];
  return [...new Set([...(PARTS[component] ?? []), ...own])];
}

/** Components imported from @mantine/core by `source` (values only, not types). */
function mantineComponents(source: string): string[] {
  const names: string[] = [];
  for (const m of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@mantine\/core'/g)) {
    for (const part of m[1]!.split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0]!;
      if (/^[A-Z]/.test(name)) names.push(name);
    }
  }
  return names;
}

/** Stylesheets `source` imports from @mantine/core/styles. */
function importedStylesheets(source: string): Set<string> {
  return new Set([...source.matchAll(/import '@mantine\/core\/styles\/(\w+)\.css';/g)].map((m) => m[1]!));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

describe('Mantine stylesheets', () => {
  const firstLoad = importedStylesheets(readFileSync(path.join(clientDir, 'mantine-styles.ts'), 'utf8'));

  it('reads component imports and stylesheet imports', () => {
    const source =
      "import '@mantine/core/styles/Input.css';\nimport { Modal, TextInput as T, type MantineTheme } from '@mantine/core';";
    expect(mantineComponents(source)).toEqual(['Modal', 'TextInput']);
    expect([...importedStylesheets(source)]).toEqual(['Input']);
    expect(stylesheetsOf('Modal')).toEqual(['Overlay', 'ModalBase', 'Modal']);
    expect(stylesheetsOf('Box')).toEqual([]);
  });

  it('every component used in client/ has its stylesheets in the first load or in its module', () => {
    const missing: string[] = [];
    for (const file of sourceFiles(clientDir)) {
      const source = readFileSync(file, 'utf8');
      const local = importedStylesheets(source);
      for (const component of mantineComponents(source)) {
        for (const sheet of stylesheetsOf(component)) {
          if (!firstLoad.has(sheet) && !local.has(sheet)) {
            missing.push(`${path.relative(clientDir, file)}: ${component} needs @mantine/core/styles/${sheet}.css`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
