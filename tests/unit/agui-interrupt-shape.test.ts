// The interrupt as seed 000 shows it (docs/hitl.md, "The interrupt"): `description` and
// `allowedDecisions` at the top of each interrupt. AG-UI 1.0's own event schema (@ag-ui/core's
// EventSchema) keeps keys beyond its Interrupt shape, so every client that reads the wire with it
// gets them there. A client that declares `protocolVersion: '1.0'` gets them in `metadata` only:
// @ag-ui/client 1.0's HttpAgent, which declares it, strips any key its Interrupt type lacks and
// warns "[ag-ui][enforce] Removed unrecognised material" for each (tests/integration/hitl.test.ts,
// "HttpAgent (protocol 1.0)"), so there they would only be noise, and lost.
import { EventType } from '@ag-ui/core';
import { EventSchema } from '@ag-ui/core/schemas';
import { describe, expect, it } from 'vitest';
import { interruptRecord } from '../../server/store/conformance/support';
import { toAgUiInterrupt } from '../../server/wire/agui/events';

const finished = (interrupt: unknown) => ({
  type: EventType.RUN_FINISHED,
  threadId: 'thread-1',
  runId: 'run-1',
  outcome: { type: 'interrupt', interrupts: [interrupt] },
});

describe('an interrupt on the AG-UI wire', () => {
  const record = interruptRecord({ description: 'Send invoice inv_7 for 19.99', allowedDecisions: ['approve', 'reject'] });

  it('carries description and allowedDecisions at its top, and AG-UI 1.0’s EventSchema keeps them', () => {
    const parsed = EventSchema.safeParse(finished(toAgUiInterrupt(record, false)));
    expect(parsed.success).toBe(true);
    const [interrupt] = (parsed.data as unknown as { outcome: { interrupts: Record<string, unknown>[] } }).outcome.interrupts;
    expect(interrupt).toMatchObject({
      id: record.id,
      reason: 'tool_call',
      toolCallId: record.toolCallId,
      description: 'Send invoice inv_7 for 19.99',
      allowedDecisions: ['approve', 'reject'],
      responseSchema: expect.any(Object),
    });
  });

  it('for a client that declared protocol 1.0, carries them in metadata, where its HttpAgent keeps them', () => {
    const strict = toAgUiInterrupt(record, true);
    expect(EventSchema.safeParse(finished(strict)).success).toBe(true);
    expect(strict).not.toHaveProperty('description');
    expect(strict.metadata).toMatchObject({ description: 'Send invoice inv_7 for 19.99', allowedDecisions: ['approve', 'reject'] });
  });

  it('omits description when the pause carried none', () => {
    const { description: _none, ...plain } = record;
    expect(toAgUiInterrupt(plain, false)).not.toHaveProperty('description');
    expect(toAgUiInterrupt(plain, false)).toMatchObject({ allowedDecisions: ['approve', 'reject'] });
  });
});
