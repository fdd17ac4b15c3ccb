// The agent names people read: a display name as given, else the code name made readable.
import { describe, expect, it } from 'vitest';
import { displayNameOf } from './agent-name';

describe('displayNameOf', () => {
  it('uses the display name when the agent has one', () => {
    expect(displayNameOf({ name: 'helpdesk', displayName: 'Customer support' })).toBe('Customer support');
  });

  it('otherwise capitalises the code name and spells its dashes as spaces', () => {
    expect(displayNameOf({ name: 'helpdesk' })).toBe('Helpdesk');
    expect(displayNameOf({ name: 'ledger-worker', displayName: ' ' })).toBe('Ledger worker');
  });
});
