/**
 * The bench's printed table and the budget verdicts (docs/decisions/0026) (PASS/FAIL, informational: the bench
 * always exits 0 once it has measured).
 */
import { FIRST_LOAD_BUDGET, type BundleSizes } from '../scripts/bundle-size';
import type { LighthouseResult } from './lighthouse';
import type { LoadResult } from './load';

/** Lighthouse budgets (mobile profile) for the public pages. */
export const LIGHTHOUSE_BUDGET = { score: 95, cls: 0.05 } as const;

/**
 * Per scenario: A's throughput at least `minRps` times B's (closed loop; requests per second until
 * the work they queued was done, `doneRps`) and A's p99 at the scenario's fixed rate (ms). CPU per
 * request is printed in the table, not judged.
 */
export const SCENARIO_BUDGETS: Record<string, { minRps: number; p99Ms: number }> = {
  'public page': { minRps: 1.0, p99Ms: 50 },
  'booking request': { minRps: 0.5, p99Ms: 60 },
  'dashboard lists': { minRps: 0.5, p99Ms: 60 },
  // On 100,000 businesses / 1,000,000 slots (docs/decisions/0081).
  'discovery search': { minRps: 0.5, p99Ms: 100 },
};

/** A measured row: one scenario and load shape, every target run on it (median over rounds). */
export interface Row {
  scenario: string;
  /** 'closed 32' or 'rate 1000/s' or 'live 500/s'. */
  mode: string;
  closedLoop: boolean;
  A: LoadResult[];
  B: LoadResult[];
  /** The framework alone (closed loop of the read scenarios only). */
  C: LoadResult[];
  /** C with its answers as plain JSON instead of superjson's (BENCH_FLOOR_PLAIN_ANSWERS). */
  CPlain: LoadResult[];
}

/** How each target of a row is named in the tables. */
export const TARGET_NAMES = { A: 'A', B: 'B', C: 'C', CPlain: 'C, plain answers' } as const;

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
    'done/s',
    'p50 ms',
    'p99 ms',
    'CPU us/req',
    'DB CPU us/req',
    'x B done/s',
    'x B CPU',
    'statuses',
  ];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) {
    for (const target of ['A', 'B', 'C', 'CPlain'] as const) {
      const rs = row[target];
      if (rs.length === 0) continue;
      const statuses: Record<string, number> = {};
      for (const r of rs) for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
      const ratio = target === 'B' ? NaN : med(rs, (r) => r.doneRps) / med(row.B, (r) => r.doneRps);
      const cpuRatio = target === 'B' ? NaN : med(rs, (r) => r.cpuPerReq) / med(row.B, (r) => r.cpuPerReq);
      lines.push(
        `| ${[
          row.scenario,
          row.mode,
          TARGET_NAMES[target],
          fmt(med(rs, (r) => r.rps)),
          fmt(med(rs, (r) => r.doneRps)),
          ms(med(rs, (r) => r.p50)),
          ms(med(rs, (r) => r.p99)),
          fmt(med(rs, (r) => r.cpuPerReq)),
          fmt(med(rs, (r) => r.dbCpuPerReq)),
          target !== 'B' && row.closedLoop ? fmt(ratio, 2) : '',
          target !== 'B' ? fmt(cpuRatio, 2) : '',
          Object.entries(statuses)
            .map(([k, v]) => `${k}:${v}`)
            .join(' '),
        ].join(' | ')} |`,
      );
    }
  }
  return lines.join('\n');
}

/**
 * One line per scenario, A beside B: closed-loop requests per second until their queued work was
 * done (`doneRps`), their ratio, CPU us per request, A's p99 at the fixed rate with B's in
 * brackets (the live update row: A's delivery p99 alone), and C's ratio to B where C ran (and
 * with plain answers, when measured).
 */
export function formatSummary(rows: Row[]): string {
  const plain = rows.some((r) => r.CPlain.length > 0);
  const lines = [
    `| scenario | A done/s | B done/s | A/B | A CPU us/req | B CPU us/req | A p99 at fixed rate (B) | C/B |${plain ? ' C/B, plain answers |' : ''}`,
    `|---|---|---|---|---|---|---|---|${plain ? '---|' : ''}`,
  ];
  const overB = (closed: Row | undefined, results: LoadResult[] | undefined) =>
    closed && results && results.length > 0
      ? fmt(med(results, (x) => x.doneRps) / med(closed.B, (x) => x.doneRps), 2)
      : '';
  const thousands = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-GB') : '-');
  for (const scenario of [...new Set(rows.map((r) => r.scenario))]) {
    const closed = rows.find((r) => r.scenario === scenario && r.closedLoop);
    const rate = rows.find((r) => r.scenario === scenario && !r.closedLoop);
    const a = (r: Row | undefined, pick: (x: LoadResult) => number | null) => (r ? med(r.A, pick) : NaN);
    const b = (r: Row | undefined, pick: (x: LoadResult) => number | null) => (r ? med(r.B, pick) : NaN);
    const p99 = rate
      ? `${ms(a(rate, (x) => x.p99))} ms at ${rate.mode.replace(/^rate /, '')}` +
        (rate.B.length > 0 ? ` (${ms(b(rate, (x) => x.p99))})` : '')
      : '-';
    lines.push(
      `| ${[
        scenario,
        thousands(a(closed ?? rate, (x) => x.doneRps)),
        thousands(b(closed, (x) => x.doneRps)),
        closed ? fmt(a(closed, (x) => x.doneRps) / b(closed, (x) => x.doneRps), 2) : '',
        thousands(a(closed ?? rate, (x) => x.cpuPerReq)),
        thousands(b(closed, (x) => x.cpuPerReq)),
        p99,
        overB(closed, closed?.C),
        ...(plain ? [overB(closed, closed?.CPlain)] : []),
      ].join(' | ')} |`,
    );
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
  const ratio = (r: Row | undefined, pick: (x: LoadResult) => number | null) =>
    r ? med(r.A, pick) / med(r.B, pick) : NaN;
  const p99 = (r: Row | undefined) => (r ? med(r.A, (x) => x.p99) : NaN);
  for (const [scenario, budget] of Object.entries(SCENARIO_BUDGETS)) {
    const closed = find(scenario, true);
    const rate = find(scenario, false);
    check(
      `${scenario} A/B done/s >= ${budget.minRps} (closed loop, until queued emails are sent)`,
      ratio(closed, (x) => x.doneRps),
      (v) => v >= budget.minRps,
      '',
      2,
    );
    check(
      `${scenario} A p99 <= ${budget.p99Ms} ms (${rate?.mode ?? 'fixed rate'})`,
      p99(rate),
      (v) => v <= budget.p99Ms,
      ' ms',
      1,
    );
  }
  const live = rows.find((r) => r.scenario === 'live update' && r.A.length > 0);
  check(`live update A p99 <= 50 ms at 500 deliveries/s (${live?.mode ?? ''})`, p99(live), (v) => v <= 50, ' ms', 1);
  if (bookingChecksOk !== null) {
    out.push({
      budget: 'booking: duplicates CONFLICT, never 500; exact row counts',
      measured: bookingChecksOk ? 'all runs consistent' : 'see the booking check lines above',
      pass: bookingChecksOk,
    });
  }
  const jsKb = FIRST_LOAD_BUDGET.js / 1024;
  const cssKb = FIRST_LOAD_BUDGET.css / 1024;
  // The page a QR code opens: /{slug}, whose app loads at the first interaction.
  check(
    `public route initial JS <= ${jsKb} KB gzipped`,
    bundle ? bundle.atFirstInteraction.js / 1024 : NaN,
    (v) => v <= jsKb,
    ' KB',
    1,
  );
  check(
    `public route initial CSS <= ${cssKb} KB gzipped`,
    bundle ? bundle.atFirstInteraction.css / 1024 : NaN,
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
