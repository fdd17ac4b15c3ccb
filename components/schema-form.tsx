'use client';
// A form generated from a JSON Schema, for the parts of an interrupt's responseSchema a person
// fills in: edited tool arguments, approval data (a note for the record), a requested answer.
// Flat objects of strings, numbers, integers, booleans (and string enums) get one field each,
// each checked as it is sent (required, a number, lengths and bounds) with what is wrong right
// under it; an object with no properties asks for nothing (its form is its button); anything
// else falls back to a JSON textarea.
import { useState } from 'react';
import type { JsonSchema } from './hooks/json-schema';
import { fieldLabel } from './format-value';
import { cn } from './ui/cn';
import { Field, Input, Select, Textarea } from './ui/field';

type FieldValue = string | boolean;

export interface SchemaForm {
  schema: JsonSchema;
  /** One field per property (none for an object without any); false: the JSON textarea. */
  simple: boolean;
  /** An object schema without properties: nothing to fill in. */
  empty: boolean;
  fields: Record<string, FieldValue>;
  setField: (key: string, value: FieldValue) => void;
  /** What is wrong with each field, as the last read found it; shown under the field. */
  errors: Record<string, string>;
  json: string;
  setJson: (json: string) => void;
  /**
   * The typed value, or why it cannot be one: `valid` false when anything is wrong; `problems`
   * are what no field shows (the JSON textarea's), a field's own are in `errors`.
   */
  read: () => { value: unknown; valid: boolean; problems: string[] };
}

export function useSchemaForm(schema: JsonSchema, initial?: unknown): SchemaForm {
  const empty = isEmptyObjectSchema(schema);
  const simple = empty || isFlatObjectSchema(schema);
  const [fields, setFields] = useState<Record<string, FieldValue>>(() => initialFields(schema, initial));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [json, setJson] = useState(() => JSON.stringify(initial ?? {}, null, 2));
  return {
    schema,
    simple,
    empty,
    fields,
    setField: (key, value) => {
      setFields((current) => ({ ...current, [key]: value }));
      // A field being corrected is no longer marked wrong.
      setErrors(({ [key]: _corrected, ...rest }) => rest);
    },
    errors,
    json,
    setJson,
    read: () => {
      if (!simple) {
        const read = readJson(json);
        return { ...read, valid: read.problems.length === 0 };
      }
      const read = readFields(schema, fields);
      setErrors(read.errors);
      return { value: read.value, valid: Object.keys(read.errors).length === 0, problems: [] };
    },
  };
}

export function SchemaFields({ form, testId, disabled, autoFocus }: { form: SchemaForm; testId: string; disabled?: boolean; autoFocus?: boolean }) {
  if (!form.simple) {
    return (
      <Textarea
        className="font-mono text-xs"
        data-testid={`${testId}-json`}
        aria-label="JSON"
        rows={5}
        value={form.json}
        disabled={disabled}
        autoFocus={autoFocus}
        onChange={(event) => form.setJson(event.target.value)}
      />
    );
  }
  if (form.empty) return null;
  const required = new Set(form.schema.required ?? []);
  return (
    <div className="grid gap-3 sm:grid-cols-2" data-testid={testId}>
      {Object.entries(form.schema.properties ?? {}).map(([key, property], index) => {
        const id = `${testId}-${key}`;
        const value = form.fields[key];
        const focus = autoFocus && index === 0;
        const error = form.errors[key];
        const invalid = error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};
        const label = (
          <>
            {fieldLabel(key, property)}
            {!required.has(key) && <span className="font-normal text-muted-foreground"> (optional)</span>}
          </>
        );
        if (typeOf(property) === 'boolean') {
          return (
            <label key={key} className="flex items-center gap-2 text-sm sm:col-span-2">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                data-testid={id}
                checked={value === true}
                disabled={disabled}
                autoFocus={focus}
                onChange={(event) => form.setField(key, event.target.checked)}
              />
              <span className="font-medium">{label}</span>
              {property.description && <span className="text-xs text-muted-foreground">{property.description}</span>}
            </label>
          );
        }
        const wide = typeOf(property) === 'string' && !Array.isArray(property.enum);
        return (
          <Field
            key={key}
            label={label}
            hint={property.description}
            error={error}
            errorId={`${id}-error`}
            className={cn(wide && 'sm:col-span-2', error && '[&_input]:border-destructive [&_select]:border-destructive')}
          >
            {Array.isArray(property.enum) ? (
              <Select
                data-testid={id}
                value={String(value ?? '')}
                disabled={disabled}
                autoFocus={focus}
                onChange={(event) => form.setField(key, event.target.value)}
                {...invalid}
              >
                {/* A prompt, not a blank: a required choice cannot be taken back to it. */}
                <option value="" disabled={required.has(key)}>
                  Choose…
                </option>
                {property.enum.map((option) => (
                  <option key={String(option)} value={String(option)}>
                    {String(option)}
                  </option>
                ))}
              </Select>
            ) : (
              <Input
                data-testid={id}
                type={typeOf(property) === 'string' ? 'text' : 'number'}
                inputMode={typeOf(property) === 'string' ? undefined : 'decimal'}
                step={typeOf(property) === 'integer' ? 1 : 'any'}
                value={String(value ?? '')}
                disabled={disabled}
                autoFocus={focus}
                onChange={(event) => form.setField(key, event.target.value)}
                {...invalid}
              />
            )}
          </Field>
        );
      })}
    </div>
  );
}

const FIELD_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type;
}

function isEmptyObjectSchema(schema: JsonSchema): boolean {
  return typeOf(schema) === 'object' && Object.keys(schema.properties ?? {}).length === 0 && !schema.additionalProperties;
}

function isFlatObjectSchema(schema: JsonSchema): boolean {
  const properties = Object.values(schema.properties ?? {});
  return typeOf(schema) === 'object' && properties.length > 0 && properties.every((property) => FIELD_TYPES.has(typeOf(property) ?? ''));
}

function initialFields(schema: JsonSchema, initial: unknown): Record<string, FieldValue> {
  const values = initial !== null && typeof initial === 'object' ? (initial as Record<string, unknown>) : {};
  const fields: Record<string, FieldValue> = {};
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const value = values[key] ?? property.default;
    fields[key] = typeOf(property) === 'boolean' ? value === true : value === undefined || value === null ? '' : String(value);
  }
  return fields;
}

/** Empty optional fields are left out, as the schema's optional keys expect; each field's problem is named for it. */
function readFields(schema: JsonSchema, fields: Record<string, FieldValue>): { value: unknown; errors: Record<string, string> } {
  const value: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  const required = new Set(schema.required ?? []);
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const field = fields[key];
    if (typeof field === 'boolean') value[key] = field;
    else if (field === undefined || field.trim() === '') {
      if (required.has(key)) errors[key] = Array.isArray(property.enum) ? 'Choose one.' : 'Required.';
    } else if (typeOf(property) === 'string') {
      const problem = textProblem(field, property);
      if (problem) errors[key] = problem;
      else value[key] = field;
    } else {
      const number = Number(field);
      const problem = numberProblem(number, property);
      if (problem) errors[key] = problem;
      else value[key] = number;
    }
  }
  return { value, errors };
}

function textProblem(text: string, schema: JsonSchema): string | undefined {
  const { minLength, maxLength } = schema as { minLength?: number; maxLength?: number };
  if (minLength !== undefined && text.length < minLength) return `At least ${minLength} characters.`;
  if (maxLength !== undefined && text.length > maxLength) return `At most ${maxLength} characters (${text.length} now).`;
  return undefined;
}

function numberProblem(number: number, schema: JsonSchema): string | undefined {
  const { minimum, maximum, exclusiveMinimum } = schema as { minimum?: number; maximum?: number; exclusiveMinimum?: number };
  if (!Number.isFinite(number)) return 'A number, please.';
  if (typeOf(schema) === 'integer' && !Number.isInteger(number)) return 'A whole number, please.';
  if (minimum !== undefined && number < minimum) return `At least ${minimum}.`;
  if (exclusiveMinimum !== undefined && number <= exclusiveMinimum) return `More than ${exclusiveMinimum}.`;
  if (maximum !== undefined && number > maximum) return `At most ${maximum}.`;
  return undefined;
}

function readJson(json: string): { value: unknown; problems: string[] } {
  try {
    return { value: JSON.parse(json), problems: [] };
  } catch (error) {
    return { value: undefined, problems: [`Not valid JSON: ${(error as Error).message}`] };
  }
}
