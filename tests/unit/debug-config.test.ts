import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import {
  exportConfigFile,
  exportConfigJson,
  formatConfigStatement,
  importConfig,
  parseConfigLiteral,
  type ConfigObject,
} from '../../src/features/debug/config-io.ts';
import { fieldControls } from '../../src/features/debug/fields.ts';
import { formatDebugParams, parseDebugParams } from '../../src/features/debug/params.ts';
import { SCENES, SCENE_IDS } from '../../src/features/debug/registry.ts';

/** A tuned copy of a scene's defaults: every number nudged (floats with awkward binary values), eases changed. */
function tuned(defaults: ConfigObject): ConfigObject {
  const out: ConfigObject = structuredClone(defaults);
  for (const [key, value] of Object.entries(out)) {
    if (typeof value === 'number') {
      out[key] = Number.isInteger(value) ? value + 7 : value + 1 / 3;
    }
  }
  out.ease = 'cubic-bezier(0.1, 0.7, 0.2, 1)';
  return out;
}

describe('debug scene switcher: config export and import', () => {
  for (const id of SCENE_IDS) {
    const scene = SCENES[id];

    it(`${id}: the exported config.ts imports back exactly`, () => {
      const config = tuned(scene.defaults);
      const file = exportConfigFile(config, scene.declaration, scene.source);
      // the whole file: the interface and its comments stay, the values are the new ones
      expect(file).toContain(`export interface ${scene.declaration.typeName}`);
      expect(file).toContain(
        `export const ${scene.declaration.constName}: ${scene.declaration.typeName} = {`,
      );
      expect(file).toContain("ease: 'cubic-bezier(0.1, 0.7, 0.2, 1)',");
      expect(file).toContain('export function resolveConfig');
      expect(file.split('\n').length).toBeGreaterThan(scene.source.split('\n').length - 5);

      const back = importConfig(file, scene.defaults, {
        constName: scene.declaration.constName,
        rules: scene.rules,
      });
      expect(back).toEqual({ ok: true, config: config, missing: [] });
      if (back.ok) expect(scene.sample(back.config)).toEqual(scene.sample(config));
    });

    it(`${id}: the defaults export to the file as it is`, () => {
      // the file's own literal and the exported one describe the same values
      const fromSource = parseConfigLiteral(scene.source, scene.declaration.constName);
      expect(fromSource).toEqual(scene.defaults);
      const statement = formatConfigStatement(scene.defaults, scene.declaration);
      expect(scene.source).toContain(statement);
      expect(exportConfigFile(scene.defaults, scene.declaration, scene.source)).toBe(scene.source);
    });

    it(`${id}: the statement alone, a bare literal and JSON import too`, () => {
      const config = tuned(scene.defaults);
      const statement = formatConfigStatement(config, scene.declaration);
      for (const text of [statement, statement.replace(/^[^=]*=\s*/, ''), exportConfigJson(config)]) {
        expect(importConfig(text, scene.defaults, { rules: scene.rules })).toEqual({
          ok: true,
          config,
          missing: [],
        });
      }
    });

    it(`${id}: every field has a control`, () => {
      const controls = fieldControls(scene.defaults, scene.rules);
      expect(controls.map((c) => c.key)).toEqual(Object.keys(scene.defaults));
      expect(controls.find((c) => c.key === 'ease')?.kind).toBe('ease');
      expect(controls.find((c) => c.key === 'durationMs')).toMatchObject({ kind: 'number' });
    });
  }

  it('writes colours in hex and plain numbers, like the config files', () => {
    const text = formatConfigStatement(
      {
        durationMs: 12_500,
        markerColor: 0x00ff00,
        rarityColors: { common: 0x8b93a7 },
        segmentColors: [0x1, 0xabcdef],
        edgeMargin: 0.1,
      },
      { constName: 'x', typeName: 'X' },
    );
    expect(text).toBe(
      [
        'export const x: X = {',
        '  durationMs: 12500,',
        '  markerColor: 0x00ff00,',
        '  rarityColors: {',
        '    common: 0x8b93a7,',
        '  },',
        '  segmentColors: [0x000001, 0xabcdef],',
        '  edgeMargin: 0.1,',
        '};',
      ].join('\n'),
    );
  });

  it('round-trips awkward values exactly', () => {
    const defaults = { a: 0, b: '', c: [0], d: 0 };
    const config = { a: 0.1 + 0.2, b: 'it\'s a \\ "test"\n\ttab ${x}', c: [-1.5e-7, 123_456_789], d: -0 };
    const text = formatConfigStatement(config, { constName: 'c', typeName: 'C' });
    const back = importConfig(text, defaults);
    expect(back.ok).toBe(true);
    if (back.ok) {
      expect(back.config).toEqual(config);
      expect(Object.is(back.config.d, -0)).toBe(true);
    }
  });

  it('reads comments, trailing commas, quoted keys, hex and signs, and never runs code', () => {
    const defaults = { durationMs: 1, ease: '', markerColor: 0, list: [0] };
    const text = `// tuned
      export const thing: Thing = {
        /* long */ durationMs: +1200, // ms
        'ease': "power2.out",
        "markerColor": 0XFF00FF,
        list: [ -1, 0x10, ],
      } satisfies Thing;`;
    expect(importConfig(text, defaults)).toEqual({
      ok: true,
      config: { durationMs: 1200, ease: 'power2.out', markerColor: 0xff00ff, list: [-1, 16] },
      missing: [],
    });
    let ran = false;
    (globalThis as { __ran?: () => void }).__ran = () => (ran = true);
    for (const code of [
      '{ durationMs: __ran() }',
      '{ durationMs: (() => 1)() }',
      '{ ...other }',
      '{ ease: `a${__ran()}` }',
      '{ durationMs: 1 + 1 }',
      '{ durationMs: Infinity }',
      '{ durationMs: 12px }',
      '{ durationMs: 1_200 }',
    ]) {
      const result = importConfig(code, defaults);
      expect(result.ok, code).toBe(false);
    }
    expect(ran).toBe(false);
  });

  it('explains what is wrong, field by field', () => {
    const scene = SCENES['bonus-wheel'];
    const result = importConfig(
      `{ durationMs: 'fast', turnz: 3, direction: 'sideways', segmentColors: [1, 'red'] }`,
      scene.defaults,
      { rules: scene.rules },
    );
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors).toContain('durationMs: expected a number, got a string');
      expect(result.errors.some((e) => e.startsWith('turnz: unknown field'))).toBe(true);
      expect(result.errors).toContain(
        "direction: expected one of 'clockwise', 'counterclockwise', got 'sideways'",
      );
      expect(result.errors).toContain('segmentColors[1]: expected a number, got a string');
    }
    const syntax = importConfig('{\n  durationMs: 1000,\n  ease: "x"\n  padding: 0.1\n}', scene.defaults);
    expect(syntax).toEqual({
      ok: false,
      errors: ["invalid character 'p' (line 4, column 3)"],
    });
    // a place on the statement's first line counts from the start of the pasted text
    expect(importConfig('export const x: X = { durationMs: 1_000 };', scene.defaults)).toEqual({
      ok: false,
      errors: ["invalid character '_' (write numbers without _ separators) (line 1, column 36)"],
    });
    expect(importConfig('', scene.defaults)).toEqual({ ok: false, errors: ['the text is empty'] });
    expect(importConfig('[1, 2]', scene.defaults).ok).toBe(false);
  });

  it('keeps missing fields at their defaults and lists them', () => {
    const scene = SCENES['battle-reel'];
    const result = importConfig('{"durationMs": 2500}', scene.defaults);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.config).toEqual({ ...scene.defaults, durationMs: 2500 });
      expect(result.missing).toContain('ease');
      expect(result.missing).not.toContain('durationMs');
    }
  });
});

describe('debug scene switcher: URL parameters', () => {
  it('reads scene, reels, track, renderer, autoplay and loop', () => {
    expect(parseDebugParams('?scene=roulette&reels=3&track=2000&renderer=canvas&autoplay=1&loop=1')).toEqual({
      scene: 'roulette',
      reels: 3,
      track: 2000,
      renderer: 'canvas',
      autoplay: true,
      loop: true,
    });
    expect(parseDebugParams('?scene=battle-reel')).toEqual({
      scene: 'battle-reel',
      reels: 1,
      track: null,
      renderer: 'auto',
      autoplay: false,
      loop: false,
    });
    expect(parseDebugParams('?scene=nope&reels=9&track=abc&renderer=dom')).toMatchObject({
      scene: 'roulette',
      reels: 1,
      track: null,
      renderer: 'auto',
    });
  });

  it('writes them back', () => {
    for (const search of [
      '?scene=roulette&reels=2&track=200&renderer=webgpu&autoplay=1&loop=1',
      '?scene=chance-wheel',
    ]) {
      expect(formatDebugParams(parseDebugParams(search))).toBe(search);
    }
  });
});

describe('debug scene switcher: the server switch', () => {
  it('is off unless DEBUG_SCENES is 1 (or true)', () => {
    expect(loadConfig({}).debugScenes).toBe(false);
    expect(loadConfig({ DEBUG_SCENES: '0' }).debugScenes).toBe(false);
    expect(loadConfig({ DEBUG_SCENES: '1' }).debugScenes).toBe(true);
    expect(loadConfig({ DEBUG_SCENES: 'true' }).debugScenes).toBe(true);
  });
});
