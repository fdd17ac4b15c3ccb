// An agent's model list as defineDeepAgent checks it (docs/models.md, "Choosing a model").
import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../models/scripted';
import { modelList } from './model-list';

describe('modelList', () => {
  it('is the one model when no list is given, labelled by its name after the provider', () => {
    expect(modelList('desk', 'openai/gpt-5-mini', undefined)).toEqual([{ id: 'openai/gpt-5-mini', label: 'gpt-5-mini' }]);
    expect(modelList('desk', createScriptedModel({ modelId: 'house' }), undefined)).toEqual([{ id: 'scripted/house', label: 'house' }]);
  });

  it('keeps the order and labels given, and puts a default the list leaves out first', () => {
    const models = ['openai/gpt-5-mini', { id: 'anthropic/claude-sonnet-4-6', label: 'Claude Sonnet 4.6' }];
    expect(modelList('desk', 'anthropic/claude-sonnet-4-6', models)).toEqual([
      { id: 'openai/gpt-5-mini', label: 'gpt-5-mini' },
      { id: 'anthropic/claude-sonnet-4-6', label: 'Claude Sonnet 4.6' },
    ]);
    expect(modelList('desk', 'openai/gpt-4o-mini', models).map((option) => option.id)).toEqual([
      'openai/gpt-4o-mini',
      'openai/gpt-5-mini',
      'anthropic/claude-sonnet-4-6',
    ]);
  });

  it('refuses a list a picker could not offer, naming the agent', () => {
    const refused: [unknown, RegExp][] = [
      [[], /models is a list of 1 to 8/],
      [[''], /models\[0\] must be a model string/],
      [['openai/gpt 5'], /models\[0\] must be a model string/],
      [[{ id: 42 }], /models\[0\] must be a model string/],
      [['openai/a', 'openai/a'], /lists "openai\/a" twice/],
      [[{ id: 'openai/a', label: 'two\nlines' }], /label of models\[0\]/],
      [Array.from({ length: 8 }, (_, index) => `openai/m${index}`), /at most 8 models \(with the default, 9\)/],
    ];
    for (const [models, message] of refused) {
      expect(() => modelList('desk', 'openai/gpt-4o-mini', models as string[])).toThrow(message);
      expect(() => modelList('desk', 'openai/gpt-4o-mini', models as string[])).toThrow(/^Agent "desk": /);
    }
    expect(() => modelList('desk', createScriptedModel(), ['openai/a'])).toThrow(/with a model object as `model`, leave models out/);
  });
});
