// The one error vocabulary (server/error-codes.ts, docs/errors.md): every code has a status and
// an answer on each wire, the chat wires keep the public codes their clients switch on, every
// code is one the server answers, and the page says what the table says.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_GROUPS, NOT_FOUND, agUiAnswer, chatCode, type ErrorCode, type NotFoundWhat } from '../../server/error-codes';
import { HttpError, jsonError } from '../../server/http/errors';
import { Refusal } from '../../server/runtime';
import { anthropicErrorResponse } from '../../server/wire/anthropic/errors';
import { openAiErrorResponse } from '../../server/wire/openai/errors';
import { renderErrorsDoc } from '../support/errors-doc';

const root = path.resolve(import.meta.dirname, '../..');
const codes = Object.keys(ERROR_CODES) as ErrorCode[];
const whats = Object.keys(NOT_FOUND) as NotFoundWhat[];

/** One error of each code (each `what` of not_found), as the runtime would throw it. */
function everyError(): { label: string; error: Refusal; code: ErrorCode }[] {
  return codes.flatMap((code): { label: string; error: Refusal; code: ErrorCode }[] =>
    code === 'not_found'
      ? whats.map((what) => ({ label: `not_found (${what})`, error: new Refusal('not_found', `No ${what}.`, { what }), code }))
      : [{ label: code, error: new Refusal(code, `Refused: ${code}.`), code }],
  );
}

describe('the error table', () => {
  it('gives every code an error status, and each code one group', () => {
    for (const code of codes) expect(ERROR_CODES[code].status, code).toBeGreaterThanOrEqual(400);
    const grouped = Object.values(ERROR_GROUPS).flatMap((group) => Object.keys(group));
    expect(grouped).toHaveLength(new Set(grouped).size);
    expect(new Set(grouped)).toEqual(new Set(codes));
  });

  it('answers every code (and every not_found) on each wire with the status of the table', async () => {
    for (const { label, error, code } of everyError()) {
      const status = ERROR_CODES[code].status;
      expect(error.status, label).toBe(status);
      const json = jsonError(error);
      expect(json.status, label).toBe(status);
      expect((await json.json()).error, label).toMatchObject({ code, message: error.message });
      const openAi = openAiErrorResponse(error);
      expect(openAi.status, label).toBe(status);
      expect((await openAi.json()).error, label).toMatchObject({ code: chatCode(code, error.details), type: expect.any(String) });
      const anthropic = anthropicErrorResponse(error);
      expect(anthropic.status, label).toBe(status);
      expect((await anthropic.json()).error, label).toMatchObject({ type: expect.any(String), details: { error_code: chatCode(code, error.details) } });
      expect(['RUN_ERROR', 'HTTP'], label).toContain(agUiAnswer(code, error.details));
    }
  });

  it('keeps the public codes the chat wires’ clients switch on (docs/internals/wires.md, "Errors")', () => {
    expect(chatCode('interrupts_pending')).toBe('approval_pending');
    expect(chatCode('unauthorized')).toBe('invalid_api_key');
    expect(chatCode('body_too_large')).toBe('request_too_large');
    expect(chatCode('not_found', { what: 'session' })).toBe('session_not_found');
    expect(chatCode('not_found', { what: 'agent' })).toBe('model_not_found');
    expect(chatCode('not_found', { what: 'endpoint' })).toBe('unknown_endpoint');
    expect(chatCode('session_busy')).toBe('session_busy');
  });

  it('answers an unknown thread before the AG-UI stream, and an unknown interrupt of a resume in it', () => {
    expect(agUiAnswer('not_found', { what: 'session' })).toBe('HTTP');
    expect(agUiAnswer('not_found', { what: 'interrupt' })).toBe('RUN_ERROR');
    expect(agUiAnswer('interrupts_pending')).toBe('RUN_ERROR');
  });

  it('takes its status from the table in HttpError too, with the headers it carries', () => {
    const error = new HttpError('too_many_sign_ins', 'Too many wrong keys.', undefined, { 'Retry-After': '30' });
    const response = jsonError(error);
    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toBe('30');
  });

  it('lists only codes the server answers: each is named in its code', () => {
    const sources = ['server', 'proxy.ts', 'scripts/lib/admission.mjs']
      .flatMap((entry) => sourceFiles(path.join(root, entry)))
      .filter((file) => !file.endsWith('error-codes.ts'));
    const text = sources.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
    for (const code of codes) expect(text, code).toContain(`'${code}'`);
    for (const what of whats) expect(text, what).toContain(`what: '${what}'`);
  });

  it('is the page docs/errors.md', async () => {
    await expect(renderErrorsDoc()).toMatchFileSnapshot(path.join(root, 'docs/errors.md'));
  });
});

function sourceFiles(entry: string): string[] {
  if (fs.statSync(entry).isFile()) return [entry];
  return fs.readdirSync(entry, { withFileTypes: true }).flatMap((child) => {
    const full = path.join(entry, child.name);
    if (child.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(child.name) && !/\.test\.tsx?$/.test(child.name) ? [full] : [];
  });
}
