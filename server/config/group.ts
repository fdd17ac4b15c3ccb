// A group of variables as .env.example shows them: a heading comment, then each variable.
import type { Variable } from './variable';

export interface Group<V extends Record<string, Variable<unknown>>> {
  /** The comment above the group in .env.example (may be ''). */
  about: string;
  variables: V;
}

/** A group, its variables' types kept for setting(). */
export function group<V extends Record<string, Variable<unknown>>>(about: string, variables: V): Group<V> {
  return { about, variables };
}
