/**
 * Load generation with autocannon (in the bench process) and the measurement around it: request
 * rate, latency percentiles, status counts, and the CPU time the target process and its
 * PostgreSQL backends spent during the measured window.
 */
import autocannon from 'autocannon';
import type postgres from 'postgres';
import { backendCpu, backendCpuDelta, processCpuMicros } from './targets';
import { clientAddress } from './wire';

/** One request as autocannon sends it. */
export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Load shape: closed loop (`rate` undefined) or a fixed overall rate in requests per second. */
export interface LoadShape {
  connections: number;
  /** Seconds of load (ignored when `amount` is set). */
  duration: number;
  /** Total requests to send (all answered before the run ends), instead of a duration. */
  amount?: number;
  /** Fixed overall rate, requests/s (autocannon corrects for coordinated omission). */
  rate?: number;
}

/** What one measured run produced. */
export interface LoadResult {
  requests: number;
  /** Answered requests per second of load. */
  rps: number;
  /**
   * Answered requests per second until the target had also finished the work they queued (A's
   * and B's booking emails): the load's seconds plus `settleS`. Equal to `rps` when nothing was
   * left queued. The closed-loop A/B throughput budgets compare this (docs/decisions/0072).
   */
  doneRps: number;
  /** Seconds the target took after the load to finish the work the requests queued (0 without a `settle`). */
  settleS: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  /** Responses by HTTP status. */
  statuses: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
  /** Target process CPU per answered request, microseconds. */
  cpuPerReq: number | null;
  /** PostgreSQL backends' CPU per answered request, microseconds. */
  dbCpuPerReq: number | null;
  durationS: number;
}

/** Where the CPU readings come from. */
export interface CpuProbe {
  pid: number;
  monitor: postgres.Sql;
  dbName: string;
  /** Backends left out of the database CPU (the bench's own connections that work during a run). */
  excludePids?: number[];
  /**
   * Waits until the target has finished the background work its requests left behind (A's
   * queued emails), so the CPU read after the load includes it and the one before excludes the
   * warm-up's. Called before each reading.
   */
  settle?: () => Promise<void>;
}

/**
 * Sends `next()`'s requests to `origin` with `shape`, reading the target's CPU time (and its
 * backends') just before and after (each after `probe.settle`). `next(i)` gives the i-th request
 * (i from 0, in send order), sent from client address `clientAddress(i)` (bench/wire.ts).
 */
export async function measure(
  origin: string,
  shape: LoadShape,
  next: (i: number) => BenchRequest,
  probe?: CpuProbe,
): Promise<LoadResult> {
  let i = 0;
  await probe?.settle?.();
  const cpu0 = probe ? processCpuMicros(probe.pid) : null;
  const db0 = probe ? await backendCpu(probe.monitor, probe.dbName, probe.excludePids) : null;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        url: origin,
        connections: shape.connections,
        duration: shape.duration,
        ...(shape.amount ? { amount: shape.amount } : {}),
        ...(shape.rate ? { overallRate: shape.rate } : {}),
        timeout: 10,
        requests: [
          {
            setupRequest: (req) => {
              const n = i++;
              const r = next(n);
              const headers = { 'x-forwarded-for': clientAddress(n), ...r.headers };
              return { ...req, method: r.method, path: r.path, headers, body: r.body } as typeof req;
            },
          },
        ],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });
  const settleStart = performance.now();
  await probe?.settle?.();
  const settleS = probe?.settle ? (performance.now() - settleStart) / 1000 : 0;
  const cpu1 = probe ? processCpuMicros(probe.pid) : null;
  const db1 = probe ? await backendCpu(probe.monitor, probe.dbName, probe.excludePids) : null;
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stat.count ?? 0;
  const answered = Object.values(statuses).reduce((a, b) => a + b, 0);
  return {
    requests: answered,
    rps: answered / result.duration,
    doneRps: answered / (result.duration + settleS),
    settleS,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    errors: result.errors,
    cpuPerReq: cpu0 !== null && cpu1 !== null && answered > 0 ? (cpu1 - cpu0) / answered : null,
    dbCpuPerReq: db0 && db1 && answered > 0 ? backendCpuDelta(db0, db1) / answered : null,
    durationS: result.duration,
  };
}
