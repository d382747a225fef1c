/**
 * Lighthouse in the bench (ADR 0049): the mobile profile (Lighthouse's default: a mid-range phone,
 * simulated slow 4G and a 4x slower CPU) on pages of a running server, in Debian's Chromium
 * (CHROME_PATH, else CHROMIUM_PATH, else /usr/bin/chromium; nothing is downloaded). Each page is
 * loaded `runs` times in a fresh headless Chromium with an empty profile (a first visit: no cache,
 * no cookie choice, so the consent banner shows) and the median run (by score) is reported.
 *
 * Alone: `tsx bench/lighthouse.ts http://127.0.0.1:3475 /demo-salon /` (BENCH_LIGHTHOUSE_RUNS=3).
 * Accessibility instead (one run per page, each failing audit with the elements it names):
 * `tsx bench/lighthouse.ts --accessibility http://127.0.0.1:3475 / /login` (BENCH_LIGHTHOUSE_COOKIE: a
 * session cookie to send, for a signed-in page).
 */
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { pathToFileURL } from 'node:url';

/** One page's median Lighthouse run. Times in ms; `score` 0-100; null when the run did not produce it. */
export interface LighthouseResult {
  /** The page's label, e.g. '/{slug}'. */
  page: string;
  url: string;
  runs: number;
  score: number | null;
  fcpMs: number | null;
  lcpMs: number | null;
  tbtMs: number | null;
  cls: number | null;
  speedIndexMs: number | null;
  /**
   * Lighthouse's measure of the host's CPU speed for this run (`environment.benchmarkIndex`, higher
   * is faster): its 4x slowdown is applied on top of the host, so scores from hosts of different
   * speeds compare only beside this number.
   */
  benchmarkIndex: number | null;
  /** Lighthouse's own warnings about the run, e.g. that the host's CPU is slower than its profile expects. */
  warnings: string[];
  /** Scores of all runs, in order. */
  scores: (number | null)[];
  /** Why a run failed (Lighthouse's runtime error), when one did. */
  error?: string;
  /** Lighthouse's version, from its report. */
  version?: string;
}

/** The Chromium Lighthouse drives. */
export const chromePath = () => process.env.CHROME_PATH || process.env.CHROMIUM_PATH || '/usr/bin/chromium';

type Run = Omit<LighthouseResult, 'page' | 'url' | 'runs' | 'scores'>;

/** One Lighthouse run of `url` (mobile, performance only) in a fresh Chromium. */
async function runOnce(url: string): Promise<Run> {
  const chrome = await launch({
    chromePath: chromePath(),
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    logLevel: 'silent',
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    const lhr = result?.lhr;
    if (!lhr) throw new Error('Lighthouse returned no report');
    const value = (id: string) => {
      const v = lhr.audits[id]?.numericValue;
      return typeof v === 'number' ? v : null;
    };
    const score = lhr.categories.performance?.score;
    return {
      score: typeof score === 'number' ? Math.round(score * 100) : null,
      fcpMs: value('first-contentful-paint'),
      lcpMs: value('largest-contentful-paint'),
      tbtMs: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'),
      speedIndexMs: value('speed-index'),
      benchmarkIndex:
        typeof lhr.environment?.benchmarkIndex === 'number' ? Math.round(lhr.environment.benchmarkIndex) : null,
      warnings: lhr.runWarnings ?? [],
      version: lhr.lighthouseVersion,
      ...(lhr.runtimeError ? { error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` } : {}),
    };
  } finally {
    chrome.kill();
  }
}

/** Attempts per run: a run whose trace Lighthouse could not read (NO_NAVSTART, NO_FCP, ...) is run again. */
const ATTEMPTS_PER_RUN = 3;

/** One run: `runOnce`, again while it fails (Lighthouse's own advice for its trace errors), at most ATTEMPTS_PER_RUN times. */
async function runWithRetries(url: string, onFailedAttempt: (error: string) => void): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    const r = await runOnce(url).catch((err: unknown): Run => ({
      score: null,
      fcpMs: null,
      lcpMs: null,
      tbtMs: null,
      cls: null,
      speedIndexMs: null,
      benchmarkIndex: null,
      warnings: [],
      error: err instanceof Error ? err.message : String(err),
    }));
    if (r.score !== null || attempt === ATTEMPTS_PER_RUN) return r;
    onFailedAttempt(r.error ?? 'no score');
  }
}

/**
 * Runs Lighthouse `runs` times on each of `pages` (label and URL) one after another and returns
 * each page's median run by score (the lower middle for an even count). A run that fails is tried
 * again, up to ATTEMPTS_PER_RUN times in all; one that still fails counts as a run without numbers
 * (ranked lowest), its message kept in `error`.
 */
export async function measureLighthouse(
  pages: { page: string; url: string }[],
  runs: number,
  log: (line: string) => void = () => {},
): Promise<LighthouseResult[]> {
  const out: LighthouseResult[] = [];
  for (const { page, url } of pages) {
    const results: Run[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await runWithRetries(url, (error) =>
        log(`  lighthouse ${page} run ${i + 1}/${runs}: failed (${error}), running it again`),
      );
      log(
        `  lighthouse ${page} run ${i + 1}/${runs}: score ${r.score ?? '-'}, LCP ${fmtMs(r.lcpMs)}, TBT ${fmtMs(r.tbtMs)}, CLS ${r.cls?.toFixed(3) ?? '-'}, BenchmarkIndex ${r.benchmarkIndex ?? '-'}${r.error ? ` (${r.error})` : ''}`,
      );
      for (const warning of r.warnings) log(`    Lighthouse warns: ${warning}`);
      results.push(r);
    }
    const ranked = [...results].sort((a, b) => (a.score ?? -1) - (b.score ?? -1));
    const median = ranked[Math.floor((ranked.length - 1) / 2)]!;
    const warnings = [...new Set(results.flatMap((r) => r.warnings))];
    out.push({ page, url, runs, scores: results.map((r) => r.score), ...median, warnings });
  }
  return out;
}

const fmtMs = (v: number | null) => (v === null ? '-' : `${Math.round(v)} ms`);

/** The results as a Markdown table. */
export function formatLighthouse(results: LighthouseResult[]): string {
  const lines = [
    '| page | score (median, all runs) | FCP ms | LCP ms | TBT ms | CLS | Speed Index ms | BenchmarkIndex |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const n = (v: number | null) => (v === null ? '-' : String(Math.round(v)));
  for (const r of results) {
    lines.push(
      `| ${r.page} | ${r.score ?? '-'} (${r.scores.map((s) => s ?? '-').join(', ')}) | ${n(r.fcpMs)} | ${n(r.lcpMs)} | ${n(r.tbtMs)} | ${r.cls?.toFixed(3) ?? '-'} | ${n(r.speedIndexMs)} | ${n(r.benchmarkIndex)} |`,
    );
  }
  // A slow host makes every score lower than the phone the profile stands for; Lighthouse says so.
  for (const warning of new Set(results.flatMap((r) => r.warnings))) lines.push('', `Lighthouse warned: ${warning}`);
  return lines.join('\n');
}

/** One page's Lighthouse accessibility score (0-100) and the audits it failed, each with the elements named. */
export interface AccessibilityResult {
  url: string;
  score: number | null;
  failures: string[];
}

/** One Lighthouse accessibility run of `url` (mobile profile) in a fresh Chromium. */
export async function measureAccessibility(url: string): Promise<AccessibilityResult> {
  const chrome = await launch({
    chromePath: chromePath(),
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    logLevel: 'silent',
  });
  try {
    const lhr = (
      await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['accessibility'],
        // A signed-in page: BENCH_LIGHTHOUSE_COOKIE, e.g. 'lastslot_session=...'.
        ...(process.env.BENCH_LIGHTHOUSE_COOKIE
          ? { extraHeaders: { Cookie: process.env.BENCH_LIGHTHOUSE_COOKIE } }
          : {}),
      })
    )?.lhr;
    if (!lhr) throw new Error('Lighthouse returned no report');
    const category = lhr.categories.accessibility;
    const failures = (category?.auditRefs ?? [])
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
      .map((audit) => {
        const items = (audit!.details as { items?: { node?: { selector?: string; snippet?: string } }[] } | undefined)
          ?.items;
        const nodes = (items ?? []).map((i) => i.node?.snippet ?? i.node?.selector ?? '?').join(' | ');
        return `${audit!.id}: ${nodes}`;
      });
    if (lhr.runtimeError) failures.push(`not scored: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const score = category?.score;
    return { url, score: typeof score === 'number' ? Math.round(score * 100) : null, failures };
  } finally {
    chrome.kill();
  }
}

// Alone: tsx bench/lighthouse.ts [--accessibility] <origin> <path>...
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const accessibility = args[0] === '--accessibility';
  const [origin, ...paths] = accessibility ? args.slice(1) : args;
  if (!origin || paths.length === 0) {
    console.error('usage: tsx bench/lighthouse.ts [--accessibility] <origin> <path> [<path>...]');
    process.exit(1);
  }
  if (accessibility) {
    void (async () => {
      for (const path of paths) {
        const r = await measureAccessibility(new URL(path, origin).href);
        console.log(`| ${path} | ${r.score ?? '-'} |`);
        for (const failure of r.failures) console.log(`    ${failure}`);
      }
    })();
  }
  const runs = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3) || 3);
  const pages = paths.map((p) => ({ page: p, url: new URL(p, origin).href }));
  if (!accessibility)
    measureLighthouse(pages, runs, console.log).then(
      (results) => console.log(`\n${formatLighthouse(results)}`),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
}
