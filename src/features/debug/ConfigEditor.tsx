import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConfigObject, ConfigValue } from './config-io';
import { colorToHex, hexToColor, type FieldControl } from './fields';

interface ConfigEditorProps {
  controls: readonly FieldControl[];
  config: ConfigObject;
  defaults: ConfigObject;
  /** Field comments from the scene's config.ts, shown as hints. */
  docs: Record<string, string>;
  onChange: (key: string, value: ConfigValue) => void;
}

type Group = 'motion' | 'layout' | 'look';

const MOTION = /Ms$|[Tt]urns$|[Ll]oops$|Count$|Copies$|Length$|FromEnd$|Cards$|^direction$|^edgeMargin$/;

function groupOf(control: FieldControl): Group {
  if (MOTION.test(control.key)) return 'motion';
  return control.kind === 'number' ? 'layout' : 'look';
}

const same = (a: ConfigValue | undefined, b: ConfigValue | undefined) =>
  JSON.stringify(a) === JSON.stringify(b);

/** A live control for every field of a scene's config except the ease (EaseEditor), grouped. */
export function ConfigEditor({ controls, config, defaults, docs, onChange }: ConfigEditorProps) {
  const groups: Record<Group, FieldControl[]> = { motion: [], layout: [], look: [] };
  for (const control of controls) if (control.kind !== 'ease') groups[groupOf(control)].push(control);
  return (
    <div className="debug-fields" data-testid="debug-fields">
      {(Object.keys(groups) as Group[]).map(
        (group) =>
          groups[group].length > 0 && (
            <fieldset key={group} className="debug-fields__group" data-group={group}>
              {groups[group].map((control) => (
                <Field
                  key={control.key}
                  control={control}
                  value={config[control.key]}
                  defaultValue={defaults[control.key]}
                  doc={docs[control.key]}
                  onChange={(value) => onChange(control.key, value)}
                />
              ))}
            </fieldset>
          ),
      )}
    </div>
  );
}

interface FieldProps {
  control: FieldControl;
  value: ConfigValue | undefined;
  defaultValue: ConfigValue | undefined;
  doc?: string;
  onChange: (value: ConfigValue) => void;
}

function Field({ control, value, defaultValue, doc, onChange }: FieldProps) {
  const { t } = useTranslation();
  const changed = !same(value, defaultValue);
  const id = `debug-field-${control.key}`;
  return (
    <div className="debug-field" data-changed={changed || undefined} data-testid={id}>
      <label className="debug-field__label" htmlFor={id + '-input'} title={doc}>
        {control.key}
      </label>
      <div className="debug-field__control">
        <FieldInput id={id + '-input'} control={control} value={value} onChange={onChange} />
      </div>
      <button
        type="button"
        className="debug-reset"
        onClick={() => defaultValue !== undefined && onChange(structuredClone(defaultValue))}
        disabled={!changed}
        title={t('debug.resetField', { field: control.key })}
        aria-label={t('debug.resetField', { field: control.key })}
      >
        ↺
      </button>
    </div>
  );
}

function FieldInput({
  id,
  control,
  value,
  onChange,
}: {
  id: string;
  control: FieldControl;
  value: ConfigValue | undefined;
  onChange: (value: ConfigValue) => void;
}) {
  switch (control.kind) {
    case 'number': {
      const n = typeof value === 'number' ? value : 0;
      return (
        <>
          <input
            type="range"
            className="debug-range"
            min={control.min}
            max={Math.max(control.max, n)}
            step={control.step}
            value={n}
            tabIndex={-1}
            aria-hidden="true"
            onChange={(event) => onChange(Number(event.target.value))}
          />
          <NumberInput id={id} value={n} step={control.step} onChange={onChange} />
        </>
      );
    }
    case 'color':
      return (
        <ColorInput
          id={id}
          value={typeof value === 'number' ? value : 0}
          onChange={(color) => onChange(color)}
        />
      );
    case 'color-list': {
      const list = Array.isArray(value) ? (value as number[]) : [];
      return (
        <div className="debug-colors" id={id}>
          {list.map((color, i) => (
            <ColorInput
              key={i}
              value={color}
              onChange={(next) => onChange(list.map((c, k) => (k === i ? next : c)))}
            />
          ))}
          <button
            type="button"
            className="debug-mini"
            onClick={() => onChange([...list, list[list.length - 1] ?? 0x3d8bfd])}
            aria-label="+"
          >
            +
          </button>
          <button
            type="button"
            className="debug-mini"
            disabled={list.length <= 1}
            onClick={() => onChange(list.slice(0, -1))}
            aria-label="−"
          >
            −
          </button>
        </div>
      );
    }
    case 'color-map': {
      const map = value && typeof value === 'object' && !Array.isArray(value) ? value : {};
      return (
        <div className="debug-colors" id={id}>
          {control.keys.map((key) => (
            <label key={key} className="debug-colors__item" title={key}>
              <ColorInput
                value={typeof map[key] === 'number' ? map[key] : 0}
                onChange={(next) => onChange({ ...map, [key]: next })}
              />
              <span>{key}</span>
            </label>
          ))}
        </div>
      );
    }
    case 'choice':
      return (
        <select
          id={id}
          className="debug-input"
          value={String(value)}
          onChange={(event) => onChange(event.target.value)}
        >
          {control.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
    default:
      return (
        <input
          id={id}
          className="debug-input"
          value={typeof value === 'string' ? value : ''}
          spellCheck={false}
          onChange={(event) => onChange(event.target.value)}
        />
      );
  }
}

/** A number field that lets the text be half-typed ('0.', '-') and applies each complete number. */
function NumberInput({
  id,
  value,
  step,
  onChange,
}: {
  id: string;
  value: number;
  step: number;
  onChange: (value: number) => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <input
      id={id}
      className="debug-input debug-number"
      type="number"
      inputMode="decimal"
      step={step}
      value={draft ?? String(value)}
      onFocus={() => setDraft(String(value))}
      onBlur={() => setDraft(null)}
      onChange={(event) => {
        setDraft(event.target.value);
        const next = event.target.valueAsNumber;
        if (Number.isFinite(next)) onChange(next);
      }}
    />
  );
}

function ColorInput({
  id,
  value,
  onChange,
}: {
  id?: string;
  value: number;
  onChange: (value: number) => void;
}) {
  return (
    <input
      id={id}
      type="color"
      className="debug-color"
      value={colorToHex(value)}
      onChange={(event) => onChange(hexToColor(event.target.value))}
    />
  );
}
