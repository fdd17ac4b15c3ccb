// The configuration as a person meets it (README, "Configuration"): a bad value stops the start
// with one line naming the variable and what it expects; an unset one is its default; a value is
// read when asked for, so a change is seen by the next call.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSettings, setting, testSetting } from './index';

describe('a start with a bad value', () => {
  it('stops with one line naming the variable, what it expects and what it got', () => {
    expect(() => checkSettings({ STACKBONE_LEASE_MS: 'abc' })).toThrow(/^STACKBONE_LEASE_MS must be a positive whole number of milliseconds, got "abc"$/);
    expect(() => checkSettings({ STACKBONE_SWEEP_MS: '-5' })).toThrow('STACKBONE_SWEEP_MS must be a whole number of milliseconds, got "-5"');
    expect(() => checkSettings({ STACKBONE_ALLOW_OPEN_ACCESS: 'yes' })).toThrow('STACKBONE_ALLOW_OPEN_ACCESS must be 1 (on) or 0 (off), got "yes"');
    expect(() => checkSettings({ STACKBONE_FIXTURE_AGENTS: 'true' })).toThrow('STACKBONE_FIXTURE_AGENTS must be 1 (on) or 0 (off), got "true"');
  });

  it('takes a web access mode in any case, and stops on a misspelled one', () => {
    for (const value of ['open', 'key', 'KEY', ' open ', '']) expect(() => checkSettings({ STACKBONE_WEB_ACCESS: value })).not.toThrow();
    expect(() => checkSettings({ STACKBONE_WEB_ACCESS: 'public' })).toThrow('STACKBONE_WEB_ACCESS must be "key" or "open", got "public"');
  });

  it('shows no more than 40 characters of the value', () => {
    expect(() => checkSettings({ STACKBONE_MODEL: 'x'.repeat(60) })).toThrow(`STACKBONE_MODEL must be "scripted", got "${'x'.repeat(40)}…"`);
  });

  it('starts with nothing set, and with every value .env.example shows', () => {
    expect(() => checkSettings({})).not.toThrow();
    const example = readFileSync(path.join(import.meta.dirname, '../../.env.example'), 'utf8');
    const env = Object.fromEntries(
      example
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(Object.keys(env).length).toBeGreaterThan(80);
    expect(() => checkSettings(env)).not.toThrow();
  });
});

describe('reading a variable', () => {
  it('is its default when unset, empty or unreadable, and its value otherwise', () => {
    expect(setting('STACKBONE_LEASE_MS', {})).toBe(30_000);
    expect(setting('STACKBONE_LEASE_MS', { STACKBONE_LEASE_MS: '  ' })).toBe(30_000);
    expect(setting('STACKBONE_LEASE_MS', { STACKBONE_LEASE_MS: 'abc' })).toBe(30_000);
    expect(setting('STACKBONE_LEASE_MS', { STACKBONE_LEASE_MS: ' 1500 ' })).toBe(1_500);
    expect(setting('STACKBONE_UPLOAD_IDLE_SECONDS', { STACKBONE_UPLOAD_IDLE_SECONDS: '0.3' })).toBe(0.3);
    expect(setting('STACKBONE_WEB_ACCESS', { STACKBONE_WEB_ACCESS: 'OPEN' })).toBe('open');
    expect(setting('STACKBONE_PUBLIC_URL', { STACKBONE_PUBLIC_URL: ' https://desk.example.com ' })).toBe('https://desk.example.com');
    expect(setting('STACKBONE_MAX_ATTACHMENT_BYTES_PER_KEY', {})).toBeUndefined();
    expect(testSetting('STACKBONE_FIXTURE_AGENTS', { STACKBONE_FIXTURE_AGENTS: '1' })).toBe(true);
    expect(testSetting('STACKBONE_FIXTURE_AGENTS', {})).toBe(false);
  });

  it('sees a change made after the first read', () => {
    const env: Record<string, string | undefined> = { STACKBONE_MAX_QUEUED_MESSAGES: '5' };
    expect(setting('STACKBONE_MAX_QUEUED_MESSAGES', env)).toBe(5);
    env.STACKBONE_MAX_QUEUED_MESSAGES = '0';
    expect(setting('STACKBONE_MAX_QUEUED_MESSAGES', env)).toBe(0);
    delete env.STACKBONE_MAX_QUEUED_MESSAGES;
    expect(setting('STACKBONE_MAX_QUEUED_MESSAGES', env)).toBe(32);
  });
});
