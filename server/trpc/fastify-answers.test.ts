import http from 'node:http';
import { initTRPC, TRPCError } from '@trpc/server';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

/**
 * tRPC's Fastify adapter as patched (@trpc/server, docs/decisions/0073): it reads the request
 * through a view of Node's IncomingMessage instead of a fetch Request, and sends a JSON answer as
 * its string, status and headers instead of a fetch Response. What goes over the wire is tRPC's
 * answer as before (status, JSON, headers), now with a Content-Length; a body the view cannot
 * read itself (multipart) still goes through a fetch Request.
 */
describe("tRPC's Fastify adapter: requests and JSON answers without fetch objects", () => {
  let app: FastifyInstance | undefined;
  const built = { Request: 0, Response: 0 };
  const globals = { Request: globalThis.Request, Response: globalThis.Response };

  // Counts the fetch objects constructed through the globals (tRPC's adapter and resolveResponse
  // use them; node:http, which the client side of these tests uses, does not).
  beforeEach(() => {
    built.Request = 0;
    built.Response = 0;
    for (const name of ['Request', 'Response'] as const) {
      globalThis[name] = new Proxy(globals[name], {
        construct(target, args, newTarget) {
          built[name]++;
          return Reflect.construct(target, args, newTarget) as object;
        },
      }) as never;
    }
  });
  afterEach(async () => {
    globalThis.Request = globals.Request;
    globalThis.Response = globals.Response;
    await app?.close();
    app = undefined;
  });

  async function start() {
    const t = initTRPC.create();
    const router = t.router({
      hello: t.procedure.input(z.object({ name: z.string() })).query(({ input }) => ({ greeting: `Hi ${input.name}` })),
      save: t.procedure.input(z.object({ name: z.string() })).mutation(({ input }) => ({ saved: input.name })),
      refuse: t.procedure.query(() => {
        throw new TRPCError({ code: 'FORBIDDEN', message: 'Not yours.' });
      }),
      upload: t.procedure.input(z.instanceof(FormData)).mutation(({ input }) => ({ name: input.get('name') })),
    });
    app = Fastify();
    await app.register(fastifyTRPCPlugin, { prefix: '/trpc', trpcOptions: { router } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    return (app.server.address() as { port: number }).port;
  }

  /** One request over node:http: status, headers and body text. */
  function call(
    port: number,
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end(init.body);
    });
  }

  it('answers a batch of queries with its JSON and a Content-Length, building no fetch Request or Response', async () => {
    const port = await start();
    const input = encodeURIComponent(JSON.stringify({ 0: { name: 'Ada' }, 1: { name: 'Bo' } }));
    const res = await call(port, `/trpc/hello,hello?batch=1&input=${input}`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual([
      { result: { data: { greeting: 'Hi Ada' } } },
      { result: { data: { greeting: 'Hi Bo' } } },
    ]);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
    expect(res.headers['transfer-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('trpc-accept, accept');
    expect(built).toEqual({ Request: 0, Response: 0 });
  });

  it("reads a mutation's JSON body from the string Fastify read", async () => {
    const port = await start();
    const res = await call(port, '/trpc/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Cy' }),
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ result: { data: { saved: 'Cy' } } });
    expect(built).toEqual({ Request: 0, Response: 0 });
  });

  it("keeps tRPC's status and error shape, for a refusal and for a body that is not JSON", async () => {
    const port = await start();
    const refused = await call(port, '/trpc/refuse');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { message: 'Not yours.', data: { code: 'FORBIDDEN' } } });

    const unreadable = await call(port, '/trpc/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(unreadable.status).toBe(400);
    expect(JSON.parse(unreadable.body)).toMatchObject({ error: { data: { code: 'BAD_REQUEST' } } });
    expect(built).toEqual({ Request: 0, Response: 0 });
  });

  it('reads a multipart body through a fetch Request built on first use', async () => {
    const port = await start();
    const boundary = 'lastslot-test-boundary';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="name"',
      '',
      'Dee',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const res = await call(port, '/trpc/upload', {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ result: { data: { name: 'Dee' } } });
    expect(built.Request).toBe(1);
  });
});
