import { describe, expect, it } from 'vitest';
import { withForksUnderParents } from './thread-lineage';

const thread = (id: string, parentId: string | null = null) => ({ id, parentId });

describe('threads with their forks under them', () => {
  it('puts each fork right under its parent, forks of forks deeper, keeping recency among the rest', () => {
    const listed = [thread('fork-b', 'a'), thread('b'), thread('a'), thread('fork-of-fork', 'fork-a'), thread('fork-a', 'a')];
    expect(withForksUnderParents(listed).map(({ thread, depth }) => `${'-'.repeat(depth)}${thread.id}`)).toEqual([
      'b',
      'a',
      '-fork-b',
      '-fork-a',
      '--fork-of-fork',
    ]);
  });

  it('shows a fork whose parent is not listed on its own, and every thread once', () => {
    const listed = [thread('orphan', 'gone'), thread('a'), thread('self', 'self')];
    expect(withForksUnderParents(listed).map(({ thread, depth }) => [thread.id, depth])).toEqual([
      ['orphan', 0],
      ['a', 0],
      ['self', 0],
    ]);
  });
});
