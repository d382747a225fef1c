#!/usr/bin/env bash
# Runs the whole Playwright suite N times in a row (default 5) while one `yes > /dev/null` per
# core keeps the CPU busy, to find tests that pass only on a quiet machine. Each run gets a fresh
# PostgreSQL database and its own port; the client is built once. The load processes are stopped
# by PID on exit. Prints one line per run and keeps each run's JSON report in .tmp/stress/.
#
#   bash scripts/e2e-stress.sh [runs]
#
# Needs the local PostgreSQL (127.0.0.1:5432, user postgres) and /usr/bin/chromium, as .ci/run.
set -uo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
OUT="$PWD/.tmp/stress"
DB=lastslot_stress_e2e
PSQL=(psql -h 127.0.0.1 -p 5432 -U postgres -d postgres -v ON_ERROR_STOP=1 -q)
mkdir -p "$OUT"

load_pids=()
stop_load() { for pid in "${load_pids[@]}"; do kill "$pid" 2>/dev/null; done; }
trap stop_load EXIT
for _ in $(seq 1 "$(nproc)"); do
  yes > /dev/null &
  load_pids+=($!)
done
echo "load: ${load_pids[*]} ($(nproc) x yes)"

export CI=true
export E2E_PORT=${E2E_PORT:-3300}
export E2E_CLIENT_DIST="$OUT/client-dist"
export E2E_DATABASE_URL="postgres://postgres@127.0.0.1:5432/$DB"
npx vite build --outDir "$E2E_CLIENT_DIST" --emptyOutDir > "$OUT/build.log" 2>&1 || {
  echo "client build failed; see $OUT/build.log"; exit 1; }

failed_runs=0
for run in $(seq 1 "$RUNS"); do
  "${PSQL[@]}" -c "drop database if exists $DB with (force)" -c "create database $DB" || exit 1
  started=$(date +%s)
  npx playwright test > "$OUT/run-$run.log" 2>&1
  status=$?
  cp .tmp/playwright-report.json "$OUT/run-$run.json" 2>/dev/null
  summary=$(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const bad = [];
    const walk = (s) => { for (const sp of s.specs || []) for (const t of sp.tests || [])
      if (t.status !== "expected" && t.status !== "skipped") bad.push(`${sp.file}:${sp.line} ${sp.title}`);
      for (const c of s.suites || []) walk(c); };
    for (const s of r.suites) walk(s);
    console.log(`${r.stats.expected} passed, ${r.stats.unexpected + r.stats.flaky} failed` +
      (bad.length ? "\n    " + bad.join("\n    ") : ""));
  ' "$OUT/run-$run.json" 2>/dev/null || echo "no report")
  [ "$status" -eq 0 ] || failed_runs=$((failed_runs + 1))
  echo "run $run: exit $status in $(( $(date +%s) - started )) s, load $(cut -d' ' -f1-3 /proc/loadavg): $summary"
done
"${PSQL[@]}" -c "drop database if exists $DB with (force)" >/dev/null 2>&1
echo "stress: $RUNS runs, $failed_runs failed"
[ "$failed_runs" -eq 0 ]
