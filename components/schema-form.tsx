'use client';
// A form generated from a JSON Schema, for the parts of an interrupt's responseSchema a person
// fills in: edited tool arguments, approval data (a note for the record), a requested answer.
// Flat objects of strings, numbers, integers, booleans (and string enums) get one field each;
// anything else falls back to a JSON textarea.
import { useState } from 'react';
import type { JsonSchema } from './hooks/json-schema';
import { fieldLabel } from './format-value';
import { Field, Input, Select, Textarea } from './ui/field';

type FieldValue = string | boolean;

export interface SchemaForm {
  schema: JsonSchema;
  /** One field per property; false: the JSON textarea. */
  simple: boolean;
  fields: Record<string, FieldValue>;
  setField: (key: string, value: FieldValue) => void;
  json: string;
  setJson: (json: string) => void;
  /** The typed value, or why the fields cannot become one. */
  read: () => { value: unknown; problems: string[] };
}

export function useSchemaForm(schema: JsonSchema, initial?: unknown): SchemaForm {
  const simple = isFlatObjectSchema(schema);
  const [fields, setFields] = useState<Record<string, FieldValue>>(() => initialFields(schema, initial));
  const [json, setJson] = useState(() => JSON.stringify(initial ?? {}, null, 2));
  return {
    schema,
    simple,
    fields,
    setField: (key, value) => setFields((current) => ({ ...current, [key]: value })),
    json,
    setJson,
    read: () => (simple ? readFields(schema, fields) : readJson(json)),
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
  const required = new Set(form.schema.required ?? []);
  return (
    <div className="grid gap-3 sm:grid-cols-2" data-testid={testId}>
      {Object.entries(form.schema.properties ?? {}).map(([key, property], index) => {
        const id = `${testId}-${key}`;
        const value = form.fields[key];
        const focus = autoFocus && index === 0;
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
          <Field key={key} label={label} hint={property.description} className={wide ? 'sm:col-span-2' : undefined}>
            {Array.isArray(property.enum) ? (
              <Select
                data-testid={id}
                value={String(value ?? '')}
                disabled={disabled}
                autoFocus={focus}
                onChange={(event) => form.setField(key, event.target.value)}
              >
                <option value="" />
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

/** Empty optional fields are left out, as the schema's optional keys expect. */
function readFields(schema: JsonSchema, fields: Record<string, FieldValue>): { value: unknown; problems: string[] } {
  const value: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const field = fields[key];
    if (typeof field === 'boolean') value[key] = field;
    else if (field === undefined || field === '') continue;
    else if (typeOf(property) === 'string') value[key] = field;
    else if (Number.isFinite(Number(field))) value[key] = Number(field);
    else problems.push(`${fieldLabel(key, property)}: not a number`);
  }
  return { value, problems };
}

function readJson(json: string): { value: unknown; problems: string[] } {
  try {
    return { value: JSON.parse(json), problems: [] };
  } catch (error) {
    return { value: undefined, problems: [`Not valid JSON: ${(error as Error).message}`] };
  }
}
