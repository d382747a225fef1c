/**
 * Database CPU per Discover search, A/B: the bench's discovery mix (`discoverySearches`) run through
 * `searchSlots` of one or more service modules on ONE connection, reading that backend's CPU
 * (utime + stime of /proc/<pid>/stat; PostgreSQL must run on this machine). After a warm-up pass per
 * module, each round runs one pass per module back to back, so pairs compare under the same load.
 * Not a test, and not part of `npm run bench` (docs/decisions/0114, bench/README.md "Discover led by
 * place").
 *
 *   tsx bench/discovery-cpu.ts <database url> [--rounds 3] [--searches 400] [--by-kind] [module ...]
 *
 * The database: one seeded by `seedDiscoveryData` (bench/db.ts). A module path (default: the app's
 * server/features/discovery/discovery.service.ts) must export `searchSlots(deps, input)`, e.g. a copy
 * of an older version of the service placed beside it. Prints, per round and module, database CPU in
 * µs per search (10 ms clock ticks: a pass should take seconds), the load average, and with
 * `--by-kind` each kind's (sort, category or not, grid) mean wall time and its three slowest searches.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../server/db/client';
import { gridFor } from '../server/features/discovery/cells';
import { discoverySearchInput, type DiscoverySearchInput } from '../shared/schemas/discovery';
import { discoverySearches } from './db';

type Search = (deps: { db: unknown; now: () => Date }, input: DiscoverySearchInput) => Promise<unknown>;

/** CPU seconds used so far by process `pid` (user + system), from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const kindOf = (s: DiscoverySearchInput) => `${s.sort}${s.category ? '+category' : ''} ${gridFor(s.miles).name}`;

async function main() {
  const args = process.argv.slice(2);
  const url = args.shift();
  if (!url)
    throw new Error('usage: tsx bench/discovery-cpu.ts <database url> [--rounds n] [--searches n] [module ...]');
  const option = (name: string, fallback: number) => {
    const i = args.indexOf(name);
    if (i < 0) return fallback;
    const value = Number(args[i + 1]);
    args.splice(i, 2);
    return value;
  };
  const rounds = option('--rounds', 3);
  const count = option('--searches', 400);
  const byKind = args.includes('--by-kind');
  const paths = args.filter((a) => a !== '--by-kind');
  if (paths.length === 0) paths.push('server/features/discovery/discovery.service.ts');
  const modules: { name: string; search: Search }[] = [];
  for (const path of paths) {
    const mod = (await import(pathToFileURL(resolve(path)).href)) as { searchSlots: Search };
    modules.push({ name: path, search: mod.searchSlots });
  }
  const mix = discoverySearches(count).map((s) => discoverySearchInput.parse(s));
  const database = await openDatabase({ url, max: 1 });
  try {
    const db = database.db;
    const [{ pid }] = (await db.execute(sql`select pg_backend_pid() as pid`)) as unknown as [{ pid: number }];
    const deps = { db, now: () => new Date() };
    /** One pass of the mix; CPU µs per search, and each search's wall ms and CPU µs (in clock ticks). */
    const pass = async (search: Search) => {
      const walls: number[] = [];
      const cpus: number[] = [];
      const cpu0 = cpuSeconds(pid);
      for (const input of mix) {
        const t0 = performance.now();
        const c0 = cpuSeconds(pid);
        await search(deps, input);
        walls.push(performance.now() - t0);
        cpus.push((cpuSeconds(pid) - c0) * 1e6);
      }
      return { cpu: ((cpuSeconds(pid) - cpu0) * 1e6) / mix.length, walls, cpus };
    };
    for (const m of modules) await pass(m.search);
    const results = new Map<string, number[]>(modules.map((m) => [m.name, []]));
    for (let r = 1; r <= rounds; r++) {
      for (const m of modules) {
        const { cpu, walls, cpus } = await pass(m.search);
        results.get(m.name)!.push(cpu);
        const load = loadavg()
          .map((l) => l.toFixed(1))
          .join(' ');
        console.log(`round ${r} ${m.name}: ${cpu.toFixed(0)} µs DB CPU per search (load ${load})`);
        if (byKind && r === rounds) printKinds(mix, walls, cpus);
      }
    }
    for (const [name, cpus] of results) {
      const sorted = [...cpus].sort((a, b) => a - b);
      console.log(
        `median ${name}: ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} µs (${cpus.map((c) => c.toFixed(0)).join(', ')})`,
      );
    }
  } finally {
    await database.close();
  }
}

/**
 * Each kind of search's count, mean wall ms and mean database CPU (a sum of 10 ms ticks: only a
 * rough share), and its three slowest searches.
 */
function printKinds(mix: DiscoverySearchInput[], walls: number[], cpus: number[]) {
  const kinds = new Map<string, number[]>();
  mix.forEach((s, i) => kinds.set(kindOf(s), [...(kinds.get(kindOf(s)) ?? []), i]));
  for (const [kind, indexes] of [...kinds].sort()) {
    const mean = (values: number[]) => indexes.reduce((sum, i) => sum + values[i]!, 0) / indexes.length;
    const slowest = [...indexes].sort((a, b) => walls[b]! - walls[a]!).slice(0, 3);
    console.log(
      `  ${kind}: ${indexes.length} searches, ${mean(walls).toFixed(2)} ms mean wall, ~${mean(cpus).toFixed(0)} µs DB CPU`,
    );
    for (const i of slowest) console.log(`    ${walls[i]!.toFixed(1)} ms #${i} ${JSON.stringify(mix[i])}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
