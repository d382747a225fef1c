import { describe, expect, it } from 'vitest';
import { distinctPass, GROUP_CHAT_MIX, visitorBusiness } from './visitors';

/** The shapes of the public page scenarios' traffic (docs/decisions/0110, 0118). */
describe("the visitors' mix", () => {
  // A what-if share, so that a short run holds enough spread-out views to count.
  const mix = { businesses: 200, hot: 5, hotShare: 0.8 };
  const views = (n: number, m = mix) => Array.from({ length: n }, (_, i) => visitorBusiness(i, m));

  it("the budget's: 99% of the views on 5 pages, the rest over every business", () => {
    const all = views(20_000, { businesses: 200, ...GROUP_CHAT_MIX });
    // The 5 hot pages also get their share of the spread-out views (5 of 200).
    expect(all.filter((b) => b <= 5).length).toBe(19_800 + (200 * 5) / 200);
    expect(new Set(all.filter((b) => b > 5)).size).toBe(195);
  });

  it('puts a share of the views on the hot pages, each of them about as often', () => {
    const all = views(10_000);
    const hot = all.filter((b) => b <= 5);
    // The 5 hot pages also get their share of the spread-out views (5 of 200).
    expect(hot.length).toBe(8_000 + (2_000 * 5) / 200);
    for (let b = 1; b <= 5; b++) expect(all.filter((x) => x === b).length).toBe(1_600 + 2_000 / 200);
  });

  it('holds the share in any short run of views, not only over the whole', () => {
    const first = views(20);
    expect(first.filter((b) => b <= 5).length).toBeGreaterThanOrEqual(16);
    expect(first.filter((b) => b > 5).length).toBeGreaterThanOrEqual(3);
  });

  it('spreads the other views over every business before opening one twice', () => {
    const cold = views(5 * 200).filter((_, i) => Math.floor((i + 1) * 0.8) === Math.floor(i * 0.8));
    expect(cold).toHaveLength(200);
    expect(new Set(cold).size).toBe(200);
    expect(Math.min(...cold)).toBe(1);
    expect(Math.max(...cold)).toBe(200);
  });
});

describe('a pass over distinct pages', () => {
  it('opens each page of its range once, in a spread order', () => {
    const pass = distinctPass(51, 200, 150);
    expect(pass).toHaveLength(150);
    expect(new Set(pass).size).toBe(150);
    expect(Math.min(...pass)).toBe(51);
    expect(Math.max(...pass)).toBe(200);
    expect(pass.slice(0, 3)).not.toEqual([51, 52, 53]);
  });

  it('stops at the size of its range, and keeps a count below it distinct', () => {
    expect(distinctPass(1, 10, 50)).toHaveLength(10);
    // 15,838 is twice the stride 7919: it must move on to one prime to the range.
    const pass = distinctPass(1, 15_838, 15_838);
    expect(new Set(pass).size).toBe(15_838);
    expect(new Set(distinctPass(1, 1000, 300)).size).toBe(300);
  });
});
