/**
 * The journeys' `test`: Playwright's, plus the `people` fixture, separate people (browser contexts,
 * helpers.ts `people`) whose console errors gather in `people.errors`; every context it opened is
 * closed when the test ends, passed or failed.
 */
import { test as base } from '@playwright/test';
import { people, type People } from './helpers';

export const test = base.extend<{ people: People }>({
  people: async ({ browser }, use) => {
    const crowd = people(browser);
    await use(crowd);
    await crowd.closeAll();
  },
});

export { expect } from '@playwright/test';
