'use client';
// The thread's model, for an agent that offers several (docs/models.md, "Choosing a model"): a
// compact select under the message box. It shows the model the thread runs on; a pick applies
// from the next message (a turn under way, or waiting on a decision, finishes on its own model).
// A model no key serves here says so: the offline scripted model answers in its place.
import { CheckIcon, ChevronDownIcon, CpuIcon } from 'lucide-react';
import { Select } from 'radix-ui';
import type { ModelOption } from '@/server/authoring/model-list';

type PickerModel = ModelOption & { offline?: boolean };

export function ModelPicker({ models, value, onChange }: { models: readonly PickerModel[]; value: string; onChange: (model: string) => void }) {
  if (models.length < 2) return null;
  const current = models.find((option) => option.id === value);
  return (
    <Select.Root value={value} onValueChange={onChange}>
      <Select.Trigger
        aria-label="Model"
        title={
          current?.offline
            ? `No key serves ${value} here: the offline scripted model answers in its place (docs/models.md)`
            : "The model this thread's next reply runs on"
        }
        data-testid="model-picker"
        data-model={value}
        data-offline={current?.offline || undefined}
        className="inline-flex h-7 max-w-56 items-center gap-1.5 rounded-md px-2 text-xs text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring data-[state=open]:bg-accent"
      >
        <CpuIcon className="size-3.5 shrink-0" aria-hidden />
        <span className="truncate">
          <Select.Value>{current?.label ?? value}</Select.Value>
        </span>
        {current?.offline && (
          <span className="shrink-0 rounded bg-muted px-1 text-[0.65rem] font-medium" data-testid="model-offline">
            offline
          </span>
        )}
        <Select.Icon asChild>
          <ChevronDownIcon className="size-3.5 shrink-0" aria-hidden />
        </Select.Icon>
      </Select.Trigger>
      <Select.Portal>
        <Select.Content
          position="popper"
          side="top"
          sideOffset={4}
          className="z-50 max-h-72 min-w-44 overflow-hidden rounded-lg border bg-card p-1 text-sm text-card-foreground shadow-lg"
          data-testid="model-options"
        >
          <Select.Viewport>
            {models.map((option) => (
              <Select.Item
                key={option.id}
                value={option.id}
                data-testid="model-option"
                data-model={option.id}
                className="relative flex cursor-default items-center gap-2 rounded-md py-1.5 pr-2 pl-7 outline-none select-none data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground"
              >
                <Select.ItemIndicator className="absolute left-2 inline-flex">
                  <CheckIcon className="size-3.5" aria-hidden />
                </Select.ItemIndicator>
                <span className="min-w-0">
                  <Select.ItemText>{option.label}</Select.ItemText>
                  <span className="block truncate text-xs text-muted-foreground">
                    {option.id}
                    {option.offline && ' · the offline model answers'}
                  </span>
                </span>
              </Select.Item>
            ))}
          </Select.Viewport>
        </Select.Content>
      </Select.Portal>
    </Select.Root>
  );
}
