// Values as a person reads them: a field's label from its schema (`title`, else its key in
// words), money with its currency, dates in the browser's zone, lists and objects in short.
// Schema hints come from the tool's input schema (zod `.meta({ title, format: 'currency' })`,
// docs/hitl.md, "What the approval card shows").
import type { JsonSchema } from './hooks/json-schema';

/** `orderId` → "Order id"; `in_seconds` → "In seconds". */
export function words(key: string): string {
  const spaced = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

export function fieldLabel(key: string, schema: JsonSchema | undefined): string {
  return schema?.title ?? words(key);
}

/** One value for a person: formatted by the schema's hint where it gives one. */
export function formatValue(value: unknown, schema?: JsonSchema, locale?: string): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'number' && schema?.format === 'currency') {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: schema.currency ?? 'USD' }).format(value);
  }
  if (typeof value === 'string' && (schema?.format === 'date-time' || schema?.format === 'date')) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime()))
      return schema.format === 'date'
        ? date.toLocaleDateString(locale, { dateStyle: 'medium' })
        : date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return new Intl.NumberFormat(locale).format(value);
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    return value.every(isPlain) ? value.map((item) => formatValue(item)).join(', ') : `${value.length} ${value.length === 1 ? 'item' : 'items'}`;
  }
  return summarize(value);
}

/** The fields of an object of arguments or results, labelled and formatted, in the schema's order. */
export function labelledFields(value: unknown, schema?: JsonSchema, locale?: string): { key: string; label: string; text: string }[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const record = value as Record<string, unknown>;
  const order = [...Object.keys(schema?.properties ?? {}), ...Object.keys(record)];
  return [...new Set(order)]
    .filter((key) => key in record)
    .map((key) => ({ key, label: fieldLabel(key, schema?.properties?.[key]), text: formatValue(record[key], schema?.properties?.[key], locale) }));
}

/** A one-line gist of a value: an object's first few values, a list's length. */
export function summarize(value: unknown, max = 80): string {
  let text: string;
  if (Array.isArray(value)) text = `${value.length} ${value.length === 1 ? 'item' : 'items'}`;
  else if (value !== null && typeof value === 'object')
    text = Object.values(value as Record<string, unknown>)
      .filter(isPlain)
      .map((item) => formatValue(item))
      .join(' · ');
  else text = formatValue(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function isPlain(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** JSON text parsed, or undefined (half-streamed arguments, plain text results). */
export function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
