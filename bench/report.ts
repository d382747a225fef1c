/**
 * The bench's printed table and the budget verdicts (docs/decisions/0026) (PASS/FAIL, informational: the bench
 * always exits 0 once it has measured).
 */
import { FIRST_LOAD_BUDGET, type BundleSizes } from '../scripts/bundle-size';
import type { LighthouseResult } from './lighthouse';
import type { LoadResult } from './load';

/** Lighthouse budgets (mobile profile) for the public pages. */
export const LIGHTHOUSE_BUDGET = { score: 95, cls: 0.05 } as const;

/** The public page as visitors load it: anonymous `GET /{slug}` HTML under the visitors' mix. */
export const PUBLIC_PAGE = 'public page';
/** The passes over distinct pages on a fresh A, each page once (every cache missed). */
export const RENDER_HTML = 'render, caches missed: page HTML';
export const RENDER_DATA = 'render, caches missed: data call';
/** The discovery mix on the larger data set (the 1M one is 'discovery search'). */
export const DISCOVERY_LARGE = 'discovery search, 4M slots';
/** The live update scenario. */
export const LIVE_UPDATE = 'live update';

/**
 * Per scenario: A's closed-loop throughput (`doneRps`: requests per second until the work they
 * queued was done) at least `min` times its floor's, and A's p99 at half its own closed-loop rate
 * of the same round (ms; `p99Ms` absent: no rate run). The floor is B for the public page HTML
 * (visitors load the page; B answers the same page's data from the same SQL) and for a tRPC call
 * the combined floor of B and C (`combinedFloor`): the database work B measures plus the
 * framework C measures (docs/decisions/0110). CPU per request is printed, not judged here.
 */
export const SCENARIO_BUDGETS: Record<string, { floor: 'B' | 'combined'; min: number; p99Ms?: number }> = {
  [PUBLIC_PAGE]: { floor: 'B', min: 1.0, p99Ms: 50 },
  'public data call': { floor: 'combined', min: 0.5 },
  'booking request': { floor: 'combined', min: 0.5, p99Ms: 60 },
  'dashboard lists': { floor: 'combined', min: 0.5, p99Ms: 60 },
  'discovery search': { floor: 'combined', min: 0.5, p99Ms: 100 },
};

/** A render that misses every cache: A's CPU per page HTML at most this many times its CPU per data call. */
export const RENDER_BUDGET = { maxCpuOverDataCall: 5 } as const;

/**
 * Discovery's database CPU per search (A's PostgreSQL backends, microseconds) on the 1M-slot data
 * set, and how much more it may take on the 4M one (a multiple of the 1M figure).
 */
export const DISCOVERY_DB_BUDGET = { maxMicrosAt1M: 3000, maxGrowthAt4M: 1.3 } as const;

/** Live update: A's delivery p99 (ms) at this many deliveries per second. */
export const LIVE_BUDGET = { p99Ms: 50, deliveriesPerSecond: 500 } as const;

/** The rate of the p99 runs: this share of A's closed-loop done/s of the same round. */
export const RATE_SHARE = 0.5;

/**
 * The floor of a tRPC call: the rate of a server that spends B's time per request on the work
 * (database, SQL, answer) and C's on the framework (Fastify, tRPC's adapter, the transformer),
 * one after the other: 1 / (1/b + 1/c), requests per second. NaN unless both are positive.
 */
export function combinedFloor(b: number, c: number): number {
  if (!(b > 0) || !(c > 0) || !Number.isFinite(b) || !Number.isFinite(c)) return NaN;
  return 1 / (1 / b + 1 / c);
}

/** The fixed rate of a round's p99 run: `share` of A's closed-loop done/s, whole requests, at least 1. */
export function halfRate(closedDoneRps: number, share: number = RATE_SHARE): number {
  return Number.isFinite(closedDoneRps) ? Math.max(1, Math.round(closedDoneRps * share)) : 0;
}

/** A measured row: one scenario and load shape, every target run on it (median over rounds). */
export interface Row {
  scenario: string;
  /** 'closed 32', 'half rate' (the rate of each round in `rates`) or 'live 500/s'. */
  mode: string;
  closedLoop: boolean;
  /** The fixed rate of each round's run (requests/s), for rate rows; empty otherwise. */
  rates: number[];
  A: LoadResult[];
  B: LoadResult[];
  /** The framework alone (closed loop of the tRPC calls only). */
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

/** A row's load shape, with its rates per round for a rate row. */
const modeOf = (row: Row) => (row.rates.length > 0 ? `${row.mode} (${row.rates.join(', ')}/s)` : row.mode);

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
          modeOf(row),
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

/** A scenario's closed-loop done/s of A, B and C (medians over rounds) and A over B, C and their combined floor. */
export function throughputs(closed: Row | undefined): {
  a: number;
  b: number;
  c: number;
  combined: number;
  overB: number;
  overC: number;
  overCombined: number;
} {
  const a = closed ? med(closed.A, (x) => x.doneRps) : NaN;
  const b = closed ? med(closed.B, (x) => x.doneRps) : NaN;
  const c = closed ? med(closed.C, (x) => x.doneRps) : NaN;
  const combined = combinedFloor(b, c);
  return { a, b, c, combined, overB: a / b, overC: a / c, overCombined: a / combined };
}

/**
 * One line per scenario: closed-loop requests per second until their queued work was done
 * (`doneRps`) of A, B and C, A over each and over the combined floor of B and C, CPU us per
 * request (process tree; A's PostgreSQL backends), A's p99 at half its closed-loop rate with the
 * rate (the live update row: A's delivery p99 alone), and C's ratio to B with plain answers when
 * measured.
 */
export function formatSummary(rows: Row[]): string {
  const plain = rows.some((r) => r.CPlain.length > 0);
  const lines = [
    `| scenario | A done/s | B done/s | C done/s | A/B | A/C | A/combined | A CPU us/req | B CPU us/req | A DB CPU us/req | A p99 at half rate |${plain ? ' C/B, plain answers |' : ''}`,
    `|---|---|---|---|---|---|---|---|---|---|---|${plain ? '---|' : ''}`,
  ];
  const thousands = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-GB') : '-');
  const ratio = (n: number) => (Number.isFinite(n) ? fmt(n, 2) : '');
  for (const scenario of [...new Set(rows.map((r) => r.scenario))]) {
    const closed = rows.find((r) => r.scenario === scenario && r.closedLoop);
    const rate = rows.find((r) => r.scenario === scenario && !r.closedLoop);
    const shown = closed ?? rate;
    const t = throughputs(closed);
    const a = (pick: (x: LoadResult) => number | null) => (shown ? med(shown.A, pick) : NaN);
    const p99 = rate
      ? `${ms(med(rate.A, (x) => x.p99))} ms at ${
          rate.rates.length > 0 ? `${fmt(median(rate.rates))}/s` : rate.mode.replace(/^rate /, '')
        }` + (rate.B.length > 0 ? ` (B ${ms(med(rate.B, (x) => x.p99))})` : '')
      : '-';
    const plainOverB = closed && closed.CPlain.length > 0 ? med(closed.CPlain, (x) => x.doneRps) / t.b : NaN;
    lines.push(
      `| ${[
        scenario,
        thousands(closed ? t.a : a((x) => x.doneRps)),
        thousands(t.b),
        thousands(t.c),
        ratio(t.overB),
        ratio(t.overC),
        ratio(t.overCombined),
        thousands(a((x) => x.cpuPerReq)),
        thousands(closed ? med(closed.B, (x) => x.cpuPerReq) : NaN),
        thousands(a((x) => x.dbCpuPerReq)),
        p99,
        ...(plain ? [ratio(plainOverB)] : []),
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

/** Statuses A answered in `row` other than 200 and a booking's 409, with their counts ('404 x12'). */
export function unexpectedStatuses(row: Row): string[] {
  const counts: Record<string, number> = {};
  for (const r of row.A)
    for (const [code, n] of Object.entries(r.statuses ?? {}))
      if (code !== '200' && code !== '409' && n > 0) counts[code] = (counts[code] ?? 0) + n;
  return Object.entries(counts).map(([code, n]) => `${code} x${n}`);
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
  // A figure from answers other than the scenario's (a 404 page, a 500) proves nothing: it fails.
  const check = (
    budget: string,
    value: number,
    ok: (v: number) => boolean,
    unit: string,
    digits = 0,
    note = '',
    ...from: (Row | undefined)[]
  ) => {
    const wrong = from.flatMap((r) => (r ? unexpectedStatuses(r) : []));
    out.push({
      budget,
      measured: Number.isFinite(value)
        ? `${value.toFixed(digits)}${unit}${note}${wrong.length > 0 ? `; A answered ${wrong.join(', ')}` : ''}`
        : 'not measured',
      pass: Number.isFinite(value) ? ok(value) && wrong.length === 0 : null,
    });
  };
  const p99 = (r: Row | undefined) => (r ? med(r.A, (x) => x.p99) : NaN);
  for (const [scenario, budget] of Object.entries(SCENARIO_BUDGETS)) {
    const closed = find(scenario, true);
    const t = throughputs(closed);
    if (budget.floor === 'B') {
      check(
        `${scenario} A/B done/s >= ${budget.min} (closed loop)`,
        t.overB,
        (v) => v >= budget.min,
        '',
        2,
        ` (A ${fmt(t.a)}/s, B ${fmt(t.b)}/s)`,
        closed,
      );
    } else {
      check(
        `${scenario} A/combined floor done/s >= ${budget.min} (combined 1/(1/B + 1/C), closed loop)`,
        t.overCombined,
        (v) => v >= budget.min,
        '',
        2,
        ` (A ${fmt(t.a)}/s, B ${fmt(t.b)}/s, C ${fmt(t.c)}/s, combined ${fmt(t.combined)}/s)`,
        closed,
      );
    }
    if (budget.p99Ms !== undefined) {
      const rate = find(scenario, false);
      check(
        `${scenario} A p99 <= ${budget.p99Ms} ms at ${RATE_SHARE}x A's closed-loop done/s`,
        p99(rate),
        (v) => v <= budget.p99Ms!,
        ' ms',
        1,
        rate && rate.rates.length > 0 ? ` at ${rate.rates.join(', ')}/s` : '',
        rate,
      );
    }
  }
  const html = find(RENDER_HTML, true);
  const data = find(RENDER_DATA, true);
  const htmlCpu = html ? med(html.A, (x) => x.cpuPerReq) : NaN;
  const dataCpu = data ? med(data.A, (x) => x.cpuPerReq) : NaN;
  check(
    `render missing every cache: A CPU per page HTML <= ${RENDER_BUDGET.maxCpuOverDataCall}x per data call`,
    htmlCpu / dataCpu,
    (v) => v <= RENDER_BUDGET.maxCpuOverDataCall,
    'x',
    2,
    ` (${fmt(htmlCpu)} and ${fmt(dataCpu)} us/req)`,
    html,
    data,
  );
  const small = find('discovery search', true);
  const large = find(DISCOVERY_LARGE, true);
  const dbAt1M = small ? med(small.A, (x) => x.dbCpuPerReq) : NaN;
  const dbAt4M = large ? med(large.A, (x) => x.dbCpuPerReq) : NaN;
  check(
    `discovery search A database CPU <= ${DISCOVERY_DB_BUDGET.maxMicrosAt1M / 1000} ms per search (1M slots)`,
    dbAt1M / 1000,
    (v) => v <= DISCOVERY_DB_BUDGET.maxMicrosAt1M / 1000,
    ' ms',
    2,
    '',
    small,
  );
  check(
    `discovery search A database CPU at 4M slots <= ${DISCOVERY_DB_BUDGET.maxGrowthAt4M}x at 1M`,
    dbAt4M / dbAt1M,
    (v) => v <= DISCOVERY_DB_BUDGET.maxGrowthAt4M,
    'x',
    2,
    ` (${fmt(dbAt4M)} and ${fmt(dbAt1M)} us/search)`,
    small,
    large,
  );
  const live = rows.find((r) => r.scenario === LIVE_UPDATE && r.A.length > 0);
  check(
    `live update A p99 <= ${LIVE_BUDGET.p99Ms} ms at ${LIVE_BUDGET.deliveriesPerSecond} deliveries/s (${live?.mode ?? ''})`,
    p99(live),
    (v) => v <= LIVE_BUDGET.p99Ms,
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
