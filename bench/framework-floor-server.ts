/**
 * Target C of `npm run bench`: the app's framework and nothing else. Fastify with tRPC's own
 * Fastify adapter under /trpc and the superjson transformer, as the app mounts them, answering one
 * batched query with the answers B gave to it, held in memory: no database, session, hook, logger
 * or input schema. No app built on this stack can answer a call for less, so C beside B shows
 * which throughput budgets the stack leaves room for (docs/decisions/0090), and B and C together
 * give a tRPC call's combined floor (docs/decisions/0110). A mutation (the booking request) is
 * answered with a stored successful answer, every time.
 *
 * Env: BENCH_FLOOR_CALL (JSON `{ procedures: ['businesses.bySlug'], body: '<B's answer>', type?: 'mutation' }`),
 * BENCH_FLOOR_ANSWERS (`plain`: answers without superjson), HOST, PORT, WEB_CONCURRENCY (worker
 * processes, default 1; a primary forks them with node:cluster, as A and B do).
 */
import cluster from 'node:cluster';
import { initTRPC, type AnyRouter } from '@trpc/server';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import superjson from 'superjson';

export interface FloorCall {
  /** Dotted procedure paths of the batch, in order. */
  procedures: string[];
  /** B's answer to the batch: tRPC's wire format, one `{ result: { data } }` per procedure. */
  body: string;
  /** How the call is sent: a query (GET, the default) or a mutation (POST). */
  type?: 'query' | 'mutation';
}

const withSuperjson = initTRPC.create({ transformer: superjson });
// Inputs through superjson, answers as plain JSON (tRPC's combined transformer): the least any
// answer serialiser could cost.
const plain = { serialize: (value: unknown) => value, deserialize: (value: unknown) => value };
const withPlainAnswers = initTRPC.create({ transformer: { input: superjson, output: plain } });

/**
 * A router with one query (or mutation, by `call.type`) per path of `call`, each returning B's
 * answer for it, deserialised once;
 * answers go out through superjson, or as plain JSON with `plainAnswers`.
 */
export function floorRouter(call: FloorCall, plainAnswers = false): AnyRouter {
  const t = plainAnswers ? withPlainAnswers : withSuperjson;
  const answers = JSON.parse(call.body) as { result: { data: Parameters<typeof superjson.deserialize>[0] } }[];
  // tRPC 11 takes nested plain objects as sub-routers: { businesses: { bySlug: query } }.
  const tree: Record<string, unknown> = {};
  call.procedures.forEach((procedure, i) => {
    const data = superjson.deserialize(answers[i]!.result.data);
    const parts = procedure.split('.');
    let node = tree;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts.at(-1)!] = call.type === 'mutation' ? t.procedure.mutation(() => data) : t.procedure.query(() => data);
  });
  return t.router(tree as Parameters<typeof t.router>[0]);
}

/** The Fastify server of one worker, not yet listening: GET /healthz and tRPC under /trpc. */
export async function floorServer(call: FloorCall, plainAnswers = false): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.register(fastifyTRPCPlugin, { prefix: '/trpc', trpcOptions: { router: floorRouter(call, plainAnswers) } });
  return app;
}

async function serve(): Promise<void> {
  const call = JSON.parse(process.env.BENCH_FLOOR_CALL ?? '') as FloorCall;
  const app = await floorServer(call, process.env.BENCH_FLOOR_ANSWERS === 'plain');
  await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 3362) });
  console.log(`framework floor worker listening (pid ${process.pid})`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

if (process.env.BENCH_FLOOR_CALL) {
  if (cluster.isPrimary) {
    const workers = Number(process.env.WEB_CONCURRENCY ?? 1);
    for (let i = 0; i < workers; i++) cluster.fork();
    process.once('SIGTERM', () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    });
    cluster.on('exit', () => {
      if (Object.values(cluster.workers ?? {}).every((w) => !w || w.isDead())) process.exit(0);
    });
  } else {
    void serve();
  }
}
