/**
 * The Resend transport against the bench's provider stub (the same HTTP answers Resend gives):
 * batches in one call with permissive validation and per-message outcomes, attachments through
 * the single send, and a refused or unanswered call rejected as a whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmailStub, STUB_RESEND_KEY, type EmailStub } from '../../bench/targets';
import { batchOutcomes, resendTransport, type BatchEmail, type MailTransport } from './transports';

let stub: EmailStub;
let transport: MailTransport;
const previousBaseUrl = process.env.RESEND_BASE_URL;

beforeAll(async () => {
  stub = await startEmailStub();
  process.env.RESEND_BASE_URL = stub.url;
  transport = resendTransport(STUB_RESEND_KEY);
});

afterAll(async () => {
  if (previousBaseUrl === undefined) delete process.env.RESEND_BASE_URL;
  else process.env.RESEND_BASE_URL = previousBaseUrl;
  await stub.close();
});

const email = (to: string): BatchEmail => ({
  from: 'LastSlot <x@y.z>',
  to,
  subject: `Hello ${to}`,
  html: '<p>Hi</p>',
  text: 'Hi',
  headers: { 'List-Unsubscribe': '<https://x/unsubscribe/t>' },
});

describe('resendTransport', () => {
  it('sends a batch in one call and maps each message to its id, in order', async () => {
    const before = stub.accepted('A');
    const outcomes = await transport.sendBatch([email('a@x.test'), email('b@x.test'), email('c@x.test')]);
    expect(outcomes).toEqual([
      { id: `bench-${before + 1}` },
      { id: `bench-${before + 2}` },
      { id: `bench-${before + 3}` },
    ]);
    expect(stub.accepted('A')).toBe(before + 3);
  });

  it('asks for permissive validation: an invalid message is refused alone, the others go', async () => {
    const before = stub.accepted('A');
    const invalid = { ...email('b@x.test'), subject: undefined as unknown as string };
    const outcomes = await transport.sendBatch([email('a@x.test'), invalid, email('c@x.test')]);
    expect(outcomes).toEqual([
      { id: `bench-${before + 1}` },
      { error: 'refused by the bench stub' },
      { id: `bench-${before + 2}` },
    ]);
    expect(stub.refused()).toContain('POST /emails/batch [1]');
  });

  it('sends a message with an attachment through the single send', async () => {
    const before = stub.accepted('A');
    const id = await transport.send({
      ...email('a@x.test'),
      attachments: [{ filename: 'appointment.ics', contentType: 'text/calendar', content: 'BEGIN:VCALENDAR' }],
    });
    expect(id).toBe(`bench-${before + 1}`);
  });

  it('rejects a batch call nobody answered, so every message in it is retried', async () => {
    const down = await startEmailStub();
    process.env.RESEND_BASE_URL = down.url;
    const unreachable = resendTransport(STUB_RESEND_KEY);
    process.env.RESEND_BASE_URL = stub.url;
    await down.close();
    await expect(unreachable.sendBatch([email('a@x.test')])).rejects.toThrow(/^Resend: application_error/);
  });
});

describe('batchOutcomes', () => {
  it('places the ids around the refused indexes', () => {
    expect(batchOutcomes(3, [{ id: 'p' }, { id: 'q' }], [{ index: 0, message: 'bad' }])).toEqual([
      { error: 'bad' },
      { id: 'p' },
      { id: 'q' },
    ]);
  });

  it('throws when the answer does not account for every message', () => {
    expect(() => batchOutcomes(3, [{ id: 'p' }], [{ index: 0, message: 'bad' }])).toThrow(
      /covers 1 sent and 1 refused of 3/,
    );
    expect(() => batchOutcomes(1, [], [{ index: 4, message: 'bad' }])).toThrow();
  });
});
