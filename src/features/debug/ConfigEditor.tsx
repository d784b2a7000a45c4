import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { BindingApi, FolderApi } from '@tweakpane/core';
import { Pane } from 'tweakpane';
import type { ConfigObject, ConfigValue } from './config-io';
import type { FieldControl } from './fields';

interface ConfigEditorProps {
  controls: readonly FieldControl[];
  config: ConfigObject;
  defaults: ConfigObject;
  /** Field comments from the scene's config.ts, shown as hints. */
  docs: Record<string, string>;
  onChange: (key: string, value: ConfigValue) => void;
}

type Group = 'motion' | 'layout' | 'look';
const GROUPS: readonly Group[] = ['motion', 'layout', 'look'];

const MOTION = /Ms$|[Tt]urns$|[Ll]oops$|Count$|Copies$|Length$|FromEnd$|Cards$|^direction$|^edgeMargin$/;

function groupOf(control: FieldControl): Group {
  if (MOTION.test(control.key)) return 'motion';
  return control.kind === 'number' ? 'layout' : 'look';
}

const same = (a: ConfigValue | undefined, b: ConfigValue | undefined) =>
  JSON.stringify(a) === JSON.stringify(b);

/** What the pane was built for: the fields and the length of every list (a longer list needs more rows). */
function shapeOf(controls: readonly FieldControl[], config: ConfigObject): string {
  return JSON.stringify(
    controls.map((c) => {
      const value = config[c.key];
      return [c.key, c.kind, Array.isArray(value) ? value.length : 0];
    }),
  );
}

interface Built {
  pane: Pane;
  /** The object the pane edits: a copy of the config, kept in step with it. */
  target: ConfigObject;
  /** Each field's row, to mark the fields that differ from the defaults. */
  rows: Map<string, HTMLElement>;
  /** True while the pane re-reads the target after a change from outside (not an edit to forward). */
  refreshing: boolean;
}

/**
 * A live control for every field of a scene's config except the ease (EaseEditor), grouped, in a tweakpane
 * panel. The panel is built once per scene (and when a list changes length) and keeps its own DOM: an edit
 * is forwarded as it happens, and a change from outside (import, reset) only refreshes the values shown.
 */
export function ConfigEditor({ controls, config, defaults, docs, onChange }: ConfigEditorProps) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const built = useRef<Built | null>(null);
  const latest = useRef({ config, defaults, docs, onChange, t });
  useLayoutEffect(() => {
    latest.current = { config, defaults, docs, onChange, t };
  });
  const shape = useMemo(() => shapeOf(controls, config), [controls, config]);

  useEffect(() => {
    const container = host.current;
    if (!container) return;
    const { config: initial, docs: hints, t: translate } = latest.current;
    const target = structuredClone(initial);
    const pane = new Pane({ container });
    const state: Built = { pane, target, rows: new Map(), refreshing: false };
    const forward = (key: string) => {
      if (!state.refreshing) latest.current.onChange(key, structuredClone(target[key]!));
    };
    const label = (row: { element: HTMLElement }, key: string, input = true) => {
      state.rows.set(key, row.element);
      row.element.dataset.testid = `debug-field-${key}`;
      const hint = hints[key];
      if (hint) row.element.title = hint;
      // the text box gets a stable id (tests, and a label a screen reader can follow)
      const box = input ? row.element.querySelector<HTMLInputElement>('input.tp-txtv_i') : null;
      if (box) box.id = `debug-field-${key}-input`;
    };

    const folders = new Map<Group, FolderApi>();
    const folderOf = (group: Group) => {
      let folder = folders.get(group);
      if (!folder)
        folders.set(group, (folder = pane.addFolder({ title: translate(`debug.groups.${group}`) })));
      return folder;
    };
    const ordered = GROUPS.flatMap((group) =>
      controls.filter((c) => c.kind !== 'ease' && groupOf(c) === group),
    );
    for (const control of ordered) {
      const folder = folderOf(groupOf(control));
      const { key } = control;
      let binding: BindingApi | null = null;
      switch (control.kind) {
        case 'number': {
          const value = typeof target[key] === 'number' ? target[key] : 0;
          binding = folder.addBinding(target, key, {
            label: key,
            min: Math.min(control.min, value),
            max: Math.max(control.max, value),
            step: control.step,
          });
          break;
        }
        case 'color':
          binding = folder.addBinding(target, key, { label: key, view: 'color' });
          break;
        case 'choice':
          binding = folder.addBinding(target, key, {
            label: key,
            options: Object.fromEntries(control.options.map((option) => [option, option])),
          });
          break;
        case 'text':
          binding = folder.addBinding(target, key, { label: key });
          break;
        case 'color-map': {
          const map = target[key] as Record<string, number>;
          const sub = folder.addFolder({ title: key });
          label(sub, key, false);
          for (const name of control.keys) {
            sub.addBinding(map, name, { label: name, view: 'color' }).on('change', () => forward(key));
          }
          break;
        }
        case 'color-list': {
          const list = target[key] as number[];
          const sub = folder.addFolder({ title: key });
          label(sub, key, false);
          list.forEach((_, i) => {
            sub.addBinding(list, i, { label: String(i + 1), view: 'color' }).on('change', () => forward(key));
          });
          sub.addButton({ title: '+' }).on('click', () => {
            latest.current.onChange(key, [...list, list[list.length - 1] ?? 0x3d8bfd]);
          });
          if (list.length > 1)
            sub.addButton({ title: '−' }).on('click', () => latest.current.onChange(key, list.slice(0, -1)));
          break;
        }
      }
      if (binding) {
        label(binding, key);
        binding.on('change', () => forward(key));
      }
    }
    built.current = state;
    return () => {
      built.current = null;
      pane.dispose();
    };
  }, [controls, shape]);

  // a change from outside (import, reset, the ease editor): copy it into the pane's object and show it
  useEffect(() => {
    const state = built.current;
    if (!state) return;
    let differs = false;
    for (const [key, value] of Object.entries(config)) {
      if (same(state.target[key], value)) continue;
      differs = true;
      const current = state.target[key];
      // nested maps and lists are bound by reference: fill them in place
      if (current && typeof current === 'object' && value && typeof value === 'object') {
        Object.assign(current, structuredClone(value));
      } else {
        state.target[key] = structuredClone(value);
      }
    }
    if (differs) {
      state.refreshing = true;
      try {
        state.pane.refresh();
      } finally {
        state.refreshing = false;
      }
    }
    for (const [key, row] of state.rows)
      row.toggleAttribute('data-changed', !same(config[key], defaults[key]));
  }, [config, defaults, shape]);

  return <div ref={host} className="debug-fields" data-testid="debug-fields" />;
}
