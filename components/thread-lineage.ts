// How a list of threads shows lineage (docs/time-travel.md): each fork under the thread it came from.

/**
 * Threads in recency order, each fork right under the thread it was forked from (docs/time-travel.md),
 * with its depth; a fork whose parent is not in the list stands on its own.
 */
export function withForksUnderParents<T extends { id: string; parentId: string | null }>(threads: T[]): { thread: T; depth: number }[] {
  const listed = new Set(threads.map((thread) => thread.id));
  const children = new Map<string, T[]>();
  for (const thread of threads) {
    if (thread.parentId && listed.has(thread.parentId) && thread.parentId !== thread.id)
      children.set(thread.parentId, [...(children.get(thread.parentId) ?? []), thread]);
  }
  const ordered: { thread: T; depth: number }[] = [];
  const seen = new Set<string>();
  const visit = (thread: T, depth: number) => {
    if (seen.has(thread.id)) return;
    seen.add(thread.id);
    ordered.push({ thread, depth });
    for (const child of children.get(thread.id) ?? []) visit(child, depth + 1);
  };
  for (const thread of threads) if (!thread.parentId || !listed.has(thread.parentId)) visit(thread, 0);
  for (const thread of threads) visit(thread, 0);
  return ordered;
}

/**
 * The conversations of a list, one entry each: a regeneration of a reply (`versionOf`) is a
 * version of its original, reached from the reply's "‹ 2/3 ›" (docs/time-travel.md,
 * "Regenerate"), unless the original is not in the list.
 */
export function withoutVersions<T extends { id: string; versionOf?: string }>(threads: T[]): T[] {
  const listed = new Set(threads.map((thread) => thread.id));
  return threads.filter((thread) => !thread.versionOf || !listed.has(thread.versionOf));
}
