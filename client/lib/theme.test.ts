import { MantineProvider } from '@mantine/core';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, theme, themeCssVariables } from './theme';

describe('themeCssVariables', () => {
  it("is the <style> MantineProvider would render on every page for the app's theme", () => {
    const html = renderToStaticMarkup(createElement(MantineProvider, { theme, cssVariablesResolver }));
    const perRender = /<style data-mantine-styles="true">([\s\S]*?)<\/style>/.exec(html)?.[1];
    expect(perRender).toBeTruthy();
    expect(themeCssVariables()).toBe(perRender);
  });
});
