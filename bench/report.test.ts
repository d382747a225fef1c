import { describe, expect, it } from 'vitest';
import type { LoadResult } from './load';
import {
  combinedFloor,
  DISCOVERY_LARGE,
  halfRate,
  PUBLIC_PAGE,
  RENDER_DATA,
  RENDER_HTML,
  verdicts,
  type Row,
} from './report';

/** The budgets' arithmetic and verdicts (docs/decisions/0110); no load is sent. */
const result = (fields: Partial<LoadResult>): LoadResult =>
  ({ doneRps: NaN, cpuPerReq: null, dbCpuPerReq: null, p99: NaN, ...fields }) as LoadResult;
const closed = (scenario: string, A: number, B: number, C?: number, a: Partial<LoadResult> = {}): Row => ({
  scenario,
  mode: 'closed 32',
  closedLoop: true,
  rates: [],
  A: [result({ doneRps: A, ...a })],
  B: [result({ doneRps: B })],
  C: C === undefined ? [] : [result({ doneRps: C })],
  CPlain: [],
});
const atHalfRate = (scenario: string, p99: number): Row => ({
  scenario,
  mode: 'half rate',
  closedLoop: false,
  rates: [300],
  A: [result({ p99 })],
  B: [],
  C: [],
  CPlain: [],
});
const verdict = (rows: Row[], start: string) => {
  const found = verdicts(rows, null, null).filter((v) => v.budget.startsWith(start));
  expect(found).toHaveLength(1);
  return found[0]!;
};

describe('the combined floor of a tRPC call', () => {
  it("is the rate of doing B's work and then C's: 1 / (1/B + 1/C)", () => {
    expect(combinedFloor(1000, 1000)).toBe(500);
    expect(combinedFloor(2000, 3000)).toBeCloseTo(1200, 9);
    expect(combinedFloor(1000, NaN)).toBeNaN();
    expect(combinedFloor(0, 1000)).toBeNaN();
  });

  it('judges A against half the combined floor, not against B alone', () => {
    // B 2000/s and C 3000/s: combined 1200/s, so A at 660/s passes (0.55) though A/B is 0.33.
    expect(verdict([closed('booking request', 660, 2000, 3000)], 'booking request A/combined').pass).toBe(true);
    expect(verdict([closed('booking request', 540, 2000, 3000)], 'booking request A/combined').pass).toBe(false);
    expect(verdict([closed('booking request', 660, 2000)], 'booking request A/combined').pass).toBeNull();
  });

  it('judges the public page HTML against B alone, at least as fast', () => {
    expect(verdict([closed(PUBLIC_PAGE, 1000, 1000, 5000)], `${PUBLIC_PAGE} A/B`).pass).toBe(true);
    expect(verdict([closed(PUBLIC_PAGE, 990, 1000, 5000)], `${PUBLIC_PAGE} A/B`).pass).toBe(false);
  });
});

describe("the p99 at half of A's own rate", () => {
  it("takes half of A's closed-loop done/s, in whole requests", () => {
    expect(halfRate(1001)).toBe(501);
    expect(halfRate(1)).toBe(1);
    expect(halfRate(NaN)).toBe(0);
  });

  it('holds each scenario to its own p99', () => {
    expect(verdict([atHalfRate('discovery search', 90)], 'discovery search A p99').pass).toBe(true);
    expect(verdict([atHalfRate('dashboard lists', 90)], 'dashboard lists A p99').pass).toBe(false);
    expect(verdict([atHalfRate(PUBLIC_PAGE, 50)], `${PUBLIC_PAGE} A p99`).pass).toBe(true);
    expect(verdict([atHalfRate(PUBLIC_PAGE, 51)], `${PUBLIC_PAGE} A p99`).pass).toBe(false);
  });
});

describe('the render that misses every cache', () => {
  it("holds the page HTML's CPU to 5 times the data call's", () => {
    const rows = (html: number) => [
      closed(RENDER_HTML, 100, NaN, undefined, { cpuPerReq: html }),
      closed(RENDER_DATA, 300, NaN, undefined, { cpuPerReq: 1000 }),
    ];
    expect(verdict(rows(5000), 'render missing every cache').pass).toBe(true);
    expect(verdict(rows(5100), 'render missing every cache').pass).toBe(false);
    expect(verdict(rows(5000), 'render missing every cache').measured).toMatch(/^5\.00x/);
  });
});

describe("discovery's database CPU at two sizes", () => {
  const rows = (at1M: number, at4M: number) => [
    closed('discovery search', 100, 100, 100, { dbCpuPerReq: at1M }),
    closed(DISCOVERY_LARGE, 100, 100, undefined, { dbCpuPerReq: at4M }),
  ];

  it('allows 3 ms per search at 1M slots', () => {
    expect(verdict(rows(3000, 3000), 'discovery search A database CPU <=').pass).toBe(true);
    expect(verdict(rows(3100, 3100), 'discovery search A database CPU <=').pass).toBe(false);
  });

  it('allows 1.3 times the 1M figure at 4M slots', () => {
    expect(verdict(rows(1000, 1300), 'discovery search A database CPU at 4M').pass).toBe(true);
    expect(verdict(rows(1000, 1400), 'discovery search A database CPU at 4M').pass).toBe(false);
    expect(verdict(rows(1000, NaN), 'discovery search A database CPU at 4M').pass).toBeNull();
  });
});

describe('a run answered with other statuses', () => {
  it('fails the budget its figure was read from, whatever the figure', () => {
    const row = closed(PUBLIC_PAGE, 5000, 1000);
    row.A[0]!.statuses = { '200': 10, '404': 990 };
    const v = verdict([row], `${PUBLIC_PAGE} A/B`);
    expect(v.pass).toBe(false);
    expect(v.measured).toMatch(/A answered 404 x990$/);
    row.A[0]!.statuses = { '200': 900, '409': 100 };
    expect(verdict([row], `${PUBLIC_PAGE} A/B`).pass).toBe(true);
  });
});
