// Which model a turn runs on (docs/models.md, "Choosing a model"): the client's choice when the
// agent offers it, else the thread's — its last turn's — and a continuation's own turn's.
import { describe, expect, it } from 'vitest';
import { defineDeepAgent } from '../../authoring';
import { Refusal } from '../errors';
import { modelOf, threadModel, turnModel } from './model-choice';
import { createScriptedModel } from '../../models/scripted';

const agent = defineDeepAgent({ name: 'desk', model: 'openai/gpt-4o-mini', models: ['openai/gpt-4o-mini', 'anthropic/claude-sonnet-4-6'] });
const ranOn = (model?: string) => ({ lastRun: { runId: 'r1', startSeq: 1, attempt: 1, usage: [], ...(model ? { model } : {}) } });

describe('the model a turn runs on', () => {
  it('is the agent’s default on a new thread, then the last turn’s while the agent still offers it', () => {
    expect(threadModel(agent, {})).toBe('openai/gpt-4o-mini');
    expect(threadModel(agent, ranOn('anthropic/claude-sonnet-4-6'))).toBe('anthropic/claude-sonnet-4-6');
    // A log from before models were recorded, or a model the agent no longer offers.
    expect(threadModel(agent, ranOn())).toBe('openai/gpt-4o-mini');
    expect(threadModel(agent, ranOn('openai/gpt-3.5'))).toBe('openai/gpt-4o-mini');
  });

  it('is the client’s choice for a new turn, and the thread’s when it names none', () => {
    expect(turnModel(agent, ranOn('openai/gpt-4o-mini'), 'anthropic/claude-sonnet-4-6', false)).toBe('anthropic/claude-sonnet-4-6');
    expect(turnModel(agent, ranOn('anthropic/claude-sonnet-4-6'), undefined, false)).toBe('anthropic/claude-sonnet-4-6');
  });

  it('stays the paused turn’s for its continuation, whatever the client asks', () => {
    expect(turnModel(agent, ranOn('anthropic/claude-sonnet-4-6'), 'openai/gpt-4o-mini', true)).toBe('anthropic/claude-sonnet-4-6');
  });

  it('refuses a model the agent does not offer, saying which it does', () => {
    for (const continuing of [false, true]) {
      const refusal = (() => {
        try {
          turnModel(agent, ranOn(), 'openai/gpt-9', continuing);
        } catch (error) {
          return error;
        }
      })();
      expect(refusal).toBeInstanceOf(Refusal);
      expect(refusal).toMatchObject({
        code: 'unknown_model',
        status: 400,
        details: { model: 'openai/gpt-9', models: ['openai/gpt-4o-mini', 'anthropic/claude-sonnet-4-6'] },
      });
    }
  });

  it('hands the AI SDK an agent’s own model object for its default', () => {
    const own = createScriptedModel({ modelId: 'house' });
    const objectAgent = defineDeepAgent({ name: 'house', model: own });
    expect(modelOf(objectAgent, threadModel(objectAgent, {}))).toBe(own);
    expect(modelOf(agent, 'anthropic/claude-sonnet-4-6')).toBe('anthropic/claude-sonnet-4-6');
  });
});
