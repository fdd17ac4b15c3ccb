// What one environment variable is (README, "Configuration"): the words .env.example says about
// it, how its text reads, and what it is when unset. A value is read when it is asked for, not when
// this module loads: the tests change process.env between cases, and a server reads what it was
// started with either way. An unreadable value reads as the default, as it always did; the server
// refuses to start with one instead (checkSettings, run by server/identity/start-checks.ts).
import { z } from 'zod';

export interface Variable<T> {
  /** What .env.example says above the variable: why one would set it, and what it changes. */
  description: string;
  /** The value .env.example shows: the default as one would write it, or '' for none. */
  example: string;
  /** What a value must be, finishing "NAME must be …" in the error that stops a start. */
  expects: string;
  /** Reads the trimmed, non-empty text; fails on a value that means nothing. */
  schema: z.ZodType<T, string>;
  /** The value when the variable is unset or empty. */
  fallback: T;
}

interface Described {
  description: string;
  /** The value .env.example shows when it is not the default itself. */
  example?: string;
}

/** Free text (a URL, a path, a list its reader splits): any value is one. */
export function text(about: Described): Variable<string | undefined> {
  return { description: about.description, example: about.example ?? '', expects: 'text', schema: z.string(), fallback: undefined };
}

/** A switch that is on only at `1` (`0` says off). */
export function flag(about: Described): Variable<boolean> {
  return {
    description: about.description,
    example: about.example ?? '',
    expects: '1 (on) or 0 (off)',
    schema: z.enum(['0', '1']).transform((value) => value === '1'),
    fallback: false,
  };
}

/** One of a few words, in any case; unset is `fallback` (undefined: the reader decides). */
export function choice<const W extends string, F extends W | undefined>(about: Described, words: readonly [W, ...W[]], fallback: F): Variable<W | F> {
  return {
    description: about.description,
    example: about.example ?? fallback ?? '',
    expects: words.map((word) => `"${word}"`).join(' or '),
    schema: z
      .string()
      .transform((value) => value.toLowerCase())
      .pipe(z.enum(words)),
    fallback,
  };
}

type Unit = 'milliseconds' | 'seconds' | 'bytes' | 'characters' | '';

/**
 * A whole number (`min` 0 or 1: whether 0 means something, e.g. "never", or would refuse
 * everyone). `fallback` undefined leaves the default to the reader.
 */
export function whole<F extends number | undefined>(about: Described, unit: Unit, fallback: F, min: 0 | 1 = 0): Variable<number | F> {
  return {
    description: about.description,
    example: about.example ?? (fallback === undefined ? '' : String(fallback)),
    expects: `a ${min === 1 ? 'positive ' : ''}whole number${unit ? ` of ${unit}` : ''}`,
    schema: z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(min).max(Number.MAX_SAFE_INTEGER)),
    fallback,
  };
}

/** A number that may have a fraction (seconds a test makes short), at least 0, or above 0 with `positive`. */
export function amount<F extends number | undefined>(about: Described, unit: Unit, fallback: F, positive = false): Variable<number | F> {
  return {
    description: about.description,
    example: about.example ?? (fallback === undefined ? '' : String(fallback)),
    expects: `a ${positive ? 'positive ' : ''}number${unit ? ` of ${unit}` : ''}`,
    schema: z
      .string()
      .regex(/^\d+(\.\d+)?$/)
      .transform(Number)
      .pipe(positive ? z.number().positive() : z.number().min(0)),
    fallback,
  };
}
