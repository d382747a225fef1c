/**
 * The bench's printed table and the budget verdicts (docs/decisions/0026) (PASS/FAIL, informational: the bench
 * always exits 0 once it has measured).
 */
import { FIRST_LOAD_BUDGET, type BundleSizes } from '../scripts/bundle-size';
import type { LighthouseResult } from './lighthouse';
import type { LoadResult } from './load';

/** Lighthouse budgets (mobile profile) for the public pages. */
export const LIGHTHOUSE_BUDGET = { score: 95, cls: 0.05 } as const;

/** A measured row: one scenario and load shape, both targets (median over rounds). */
export interface Row {
  scenario: string;
  /** 'closed 32' or 'rate 1000/s' or 'live 500/s'. */
  mode: string;
  closedLoop: boolean;
  A: LoadResult[];
  B: LoadResult[];
}

const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Median of a numeric field over rounds (NaN when none). */
export function med(results: LoadResult[], pick: (r: LoadResult) => number | null): number {
  return median(results.map((r) => pick(r) ?? NaN));
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(1) : n.toFixed(0)) : '-');

/** The results table as Markdown (also readable in a terminal). */
export function formatTable(rows: Row[]): string {
  const header = [
    'scenario',
    'load',
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'CPU us/req',
    'DB CPU us/req',
    'A/B req/s',
    'A/B CPU',
    'statuses',
  ];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) {
    for (const target of ['A', 'B'] as const) {
      const rs = row[target];
      if (rs.length === 0) continue;
      const statuses: Record<string, number> = {};
      for (const r of rs) for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
      const ratio = target === 'A' ? med(row.A, (r) => r.rps) / med(row.B, (r) => r.rps) : NaN;
      const cpuRatio = target === 'A' ? med(row.A, (r) => r.cpuPerReq) / med(row.B, (r) => r.cpuPerReq) : NaN;
      lines.push(
        `| ${[
          row.scenario,
          row.mode,
          target,
          fmt(med(rs, (r) => r.rps)),
          ms(med(rs, (r) => r.p50)),
          ms(med(rs, (r) => r.p99)),
          fmt(med(rs, (r) => r.cpuPerReq)),
          fmt(med(rs, (r) => r.dbCpuPerReq)),
          target === 'A' && row.closedLoop ? fmt(ratio, 2) : '',
          target === 'A' ? fmt(cpuRatio, 2) : '',
          Object.entries(statuses)
            .map(([k, v]) => `${k}:${v}`)
            .join(' '),
        ].join(' | ')} |`,
      );
    }
  }
  return lines.join('\n');
}

/** One budget line. */
export interface Verdict {
  budget: string;
  measured: string;
  pass: boolean | null;
}

/** The performance budgets checked against `rows`, `bundle`, the booking checks and Lighthouse. */
export function verdicts(
  rows: Row[],
  bundle: BundleSizes | null,
  bookingChecksOk: boolean | null,
  lighthouse: LighthouseResult[] | null = null,
): Verdict[] {
  const find = (scenario: string, closed: boolean) =>
    rows.find((r) => r.scenario === scenario && r.closedLoop === closed && r.A.length > 0);
  const out: Verdict[] = [];
  const check = (budget: string, value: number, ok: (v: number) => boolean, unit: string, digits = 0) =>
    out.push({
      budget,
      measured: Number.isFinite(value) ? `${value.toFixed(digits)}${unit}` : 'not measured',
      pass: Number.isFinite(value) ? ok(value) : null,
    });
  const pub = find('public page', true);
  const book = find('booking request', true);
  const bookRate = find('booking request', false);
  const dash = find('dashboard lists', false);
  const live = rows.find((r) => r.scenario === 'live update' && r.A.length > 0);
  const ratio = (r: Row | undefined) => (r ? med(r.A, (x) => x.rps) / med(r.B, (x) => x.rps) : NaN);
  check('public page A/B >= 0.5 (closed loop)', ratio(pub), (v) => v >= 0.5, '', 2);
  check('public page A >= 2,500 req/s (closed loop)', pub ? med(pub.A, (x) => x.rps) : NaN, (v) => v >= 2500, ' req/s');
  check('booking A/B >= 0.45 (closed loop)', ratio(book), (v) => v >= 0.45, '', 2);
  check(
    `booking A p99 <= 40 ms (${bookRate?.mode ?? 'fixed rate'})`,
    bookRate ? med(bookRate.A, (x) => x.p99) : NaN,
    (v) => v <= 40,
    ' ms',
    1,
  );
  check(
    `dashboard A p99 <= 25 ms (${dash?.mode ?? 'fixed rate'})`,
    dash ? med(dash.A, (x) => x.p99) : NaN,
    (v) => v <= 25,
    ' ms',
    1,
  );
  check(
    `live update A p99 <= 50 ms at 500 deliveries/s (${live?.mode ?? ''})`,
    live ? med(live.A, (x) => x.p99) : NaN,
    (v) => v <= 50,
    ' ms',
    1,
  );
  if (bookingChecksOk !== null) {
    out.push({
      budget: 'booking: duplicates CONFLICT, never 500; exact row counts',
      measured: bookingChecksOk ? 'all runs consistent' : 'see the booking check lines above',
      pass: bookingChecksOk,
    });
  }
  const jsKb = FIRST_LOAD_BUDGET.js / 1024;
  const cssKb = FIRST_LOAD_BUDGET.css / 1024;
  check(
    `public route initial JS <= ${jsKb} KB gzipped`,
    bundle ? bundle.routeJs / 1024 : NaN,
    (v) => v <= jsKb,
    ' KB',
    1,
  );
  check(
    `public route initial CSS <= ${cssKb} KB gzipped`,
    bundle ? bundle.routeCss / 1024 : NaN,
    (v) => v <= cssKb,
    ' KB',
    1,
  );
  for (const r of lighthouse ?? []) {
    check(
      `Lighthouse mobile performance >= ${LIGHTHOUSE_BUDGET.score} (${r.page})`,
      r.score ?? NaN,
      (v) => v >= LIGHTHOUSE_BUDGET.score,
      '',
    );
    check(
      `Lighthouse CLS <= ${LIGHTHOUSE_BUDGET.cls} (${r.page})`,
      r.cls ?? NaN,
      (v) => v <= LIGHTHOUSE_BUDGET.cls,
      '',
      3,
    );
  }
  return out;
}

/** Verdicts as Markdown lines. */
export function formatVerdicts(vs: Verdict[]): string {
  const lines = ['| budget | measured | verdict |', '|---|---|---|'];
  for (const v of vs)
    lines.push(`| ${v.budget} | ${v.measured} | ${v.pass === null ? 'n/a' : v.pass ? 'PASS' : 'FAIL'} |`);
  return lines.join('\n');
}
