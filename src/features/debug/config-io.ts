import JSON5 from 'json5';

/**
 * Export and import of scene configs as text, as plain functions (no DOM, no React): a tuned config becomes
 * the content of the scene's config.ts (a TypeScript object literal in the file's own style), and a pasted
 * or uploaded text (the whole config.ts, the `export const ...` statement, the bare object literal or JSON)
 * becomes a config again. The literal is read with JSON5, a superset of JSON that is also valid TypeScript
 * for plain data (comments, unquoted and single-quoted keys, single-quoted strings, hex numbers, trailing
 * commas), so text is never evaluated; the result is checked against the default config, field by field.
 * The config files write their numbers as JSON5 does (10000, not 10_000), so a file round-trips.
 */

export type ConfigValue = number | string | boolean | null | ConfigValue[] | { [key: string]: ConfigValue };
export type ConfigObject = { [key: string]: ConfigValue };

/** How a scene's config is declared in its config.ts. */
export interface ConfigDeclaration {
  /** The exported constant, e.g. 'rouletteConfig'. */
  constName: string;
  /** Its type, e.g. 'RouletteConfig'. */
  typeName: string;
}

/** Extra checks on top of "same type as the default". */
export interface FieldRule {
  /** The only allowed values of a string field. */
  choices?: readonly string[];
}

export type ImportResult =
  | {
      ok: true;
      config: ConfigObject;
      /** Fields the text did not have: they keep their default values. */
      missing: string[];
    }
  | { ok: false; errors: string[] };

// ── export ────────────────────────────────────────────────────────────────────

const INDENT = '  ';

/** Fields holding colours (0xRRGGBB numbers) are written in hex, as the config files do. */
export function isColorKey(key: string): boolean {
  return /colou?rs?$/i.test(key);
}

function formatNumber(value: number, color: boolean): string {
  if (!Number.isFinite(value)) throw new RangeError(`cannot write ${value} into a config file`);
  if (Object.is(value, -0)) return '-0';
  if (color && Number.isInteger(value) && value >= 0 && value <= 0xffffffff) {
    return `0x${value.toString(16).padStart(6, '0')}`;
  }
  return String(value);
}

/** Strings and keys as JSON5 writes them, single-quoted like the config files. */
const formatString = (value: string) => JSON5.stringify(value, { quote: "'" });
const formatKey = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : formatString(key));

function formatValue(value: ConfigValue, key: string, depth: number): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return formatNumber(value, isColorKey(key));
  if (typeof value === 'string') return formatString(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((item) => formatValue(item, key, depth + 1)).join(', ')}]`;
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  // the members of a colour map are colours too (rarityColors: { common: 0x8b93a7, ... })
  const inner = entries
    .map(
      ([k, v]) =>
        `${INDENT.repeat(depth + 1)}${formatKey(k)}: ${formatValue(v, isColorKey(key) ? key : k, depth + 1)},`,
    )
    .join('\n');
  return `{\n${inner}\n${INDENT.repeat(depth)}}`;
}

/** The config as a TypeScript object literal in the style of the config files (hex colours). */
function formatConfigLiteral(config: ConfigObject): string {
  return formatValue(config, '', 0);
}

/** `export const rouletteConfig: RouletteConfig = {...};`: the statement that holds a scene's tuning values. */
export function formatConfigStatement(config: ConfigObject, declaration: ConfigDeclaration): string {
  return `export const ${declaration.constName}: ${declaration.typeName} = ${formatConfigLiteral(config)};`;
}

/**
 * The scene's config.ts with its tuning values replaced by `config`: everything else in the file (the
 * interface and its comments, helpers) stays as it is. Without the file's text, or when the statement is
 * not found in it, just the statement.
 */
export function exportConfigFile(
  config: ConfigObject,
  declaration: ConfigDeclaration,
  source?: string,
): string {
  const statement = formatConfigStatement(config, declaration);
  if (source) {
    const found = findDeclaration(source, declaration.constName);
    if (found) {
      try {
        let end = readValue(source, found.literal).end;
        if (source[end] === ';') end += 1;
        return `${source.slice(0, found.statement)}${statement}${source.slice(end)}`;
      } catch {
        // an unreadable literal: fall through to the statement alone
      }
    }
  }
  return `${statement}\n`;
}

/** The config as JSON (colours as plain numbers), for tools that want it. */
export function exportConfigJson(config: ConfigObject): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}

// ── import ────────────────────────────────────────────────────────────────────

/** A text that is not a readable config literal; the message names the line and column. */
class ConfigSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigSyntaxError';
  }
}

/** `[export] const name[: Type] =`, for one name or any. */
function declarationPattern(constName?: string): RegExp {
  const name = constName ? constName.replace(/\$/g, '\\$') : '[A-Za-z_$][\\w$]*';
  return new RegExp(`(?:^|[\\s;])((?:export\\s+)?const\\s+${name}\\s*(?::[^=]*)?=\\s*)`, 'm');
}

/** Where the declaration statement starts and where its literal starts, or null when there is none. */
function findDeclaration(text: string, constName?: string): { statement: number; literal: number } | null {
  const match = declarationPattern(constName).exec(text);
  if (!match) return null;
  const statement = match.index + match[0].length - match[1]!.length;
  return { statement, literal: match.index + match[0].length };
}

/** Offset of a 1-based line and column. */
function offsetOf(text: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', at);
    if (next < 0) return text.length;
    at = next + 1;
  }
  return at + column - 1;
}

interface Json5Error extends SyntaxError {
  lineNumber?: number;
  columnNumber?: number;
}

/** The error's message without the library's prefix, and with the place as line and column. */
function describeError(error: unknown, text: string, from: number): ConfigSyntaxError {
  const e = error as Json5Error;
  const message = String(e.message ?? e)
    .replace(/^JSON5: /, '')
    .replace(/ at \d+:\d+$/, '');
  if (e.lineNumber === undefined || e.columnNumber === undefined) return new ConfigSyntaxError(message);
  // the place in the whole pasted text, not in the literal the parser was given
  const before = text.slice(0, from);
  const line = before.split('\n').length - 1 + e.lineNumber;
  const column = e.lineNumber === 1 ? from - before.lastIndexOf('\n') - 1 + e.columnNumber : e.columnNumber;
  const hint = /'_'/.test(message) ? ' (write numbers without _ separators)' : '';
  return new ConfigSyntaxError(`${message}${hint} (line ${line}, column ${column})`);
}

/**
 * The JSON5 value at `from` in `text` and the offset where what follows it starts. JSON5 reads a whole
 * text, so a value followed by more (`;`, `satisfies T`, the rest of a file) fails at the first character
 * after the value: the value is then read again up to there.
 */
function readValue(text: string, from: number): { value: unknown; end: number } {
  const rest = text.slice(from);
  try {
    return { value: JSON5.parse(rest), end: text.length };
  } catch (error) {
    const e = error as Json5Error;
    if (e.lineNumber !== undefined && e.columnNumber !== undefined) {
      const stop = offsetOf(rest, e.lineNumber, e.columnNumber);
      if (stop > 0 && stop < rest.length) {
        try {
          return { value: JSON5.parse(rest.slice(0, stop)), end: from + stop };
        } catch {
          // the value itself is broken: report the first error
        }
      }
    }
    throw describeError(error, text, from);
  }
}

/**
 * The config literal in `text` (a whole config.ts, the `export const` statement, a bare object literal or
 * JSON) as plain data; throws ConfigSyntaxError with a line and column when it cannot be read.
 */
export function parseConfigLiteral(text: string, constName?: string): ConfigObject {
  const found = findDeclaration(text, constName) ?? (constName ? findDeclaration(text) : null);
  if (found) return readValue(text, found.literal).value as ConfigObject;
  const start = text.search(/\S/);
  if (start < 0 || (text[start] !== '{' && text[start] !== '[')) {
    throw new ConfigSyntaxError(
      'no config found: paste the config file, its "export const ... = {...}" statement or a JSON object',
    );
  }
  // a bare literal or JSON: nothing but an optional ';' may follow
  const { value, end } = readValue(text, start);
  const after = text.slice(end).replace(/^;/, '');
  if (after.trim()) {
    const at = end + text.slice(end).search(/[^;\s]/);
    const line = text.slice(0, at).split('\n').length;
    const column = at - text.lastIndexOf('\n', at - 1);
    throw new ConfigSyntaxError(`unexpected text after the config (line ${line}, column ${column})`);
  }
  return value as ConfigObject;
}

// ── validation ────────────────────────────────────────────────────────────────

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'true or false';
  return typeof value;
}

function checkValue(path: string, value: ConfigValue, reference: unknown, errors: string[]): void {
  if (typeof reference === 'number') {
    if (typeof value !== 'number') errors.push(`${path}: expected a number, got ${kindOf(value)}`);
    else if (!Number.isFinite(value)) errors.push(`${path}: expected a finite number`);
    return;
  }
  if (typeof reference === 'string') {
    if (typeof value !== 'string') errors.push(`${path}: expected a string, got ${kindOf(value)}`);
    return;
  }
  if (typeof reference === 'boolean') {
    if (typeof value !== 'boolean') errors.push(`${path}: expected true or false, got ${kindOf(value)}`);
    return;
  }
  if (Array.isArray(reference)) {
    if (!Array.isArray(value)) {
      errors.push(`${path}: expected a list, got ${kindOf(value)}`);
      return;
    }
    const item = reference[0] ?? 0;
    value.forEach((v, k) => checkValue(`${path}[${k}]`, v, item, errors));
    return;
  }
  if (reference !== null && typeof reference === 'object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      errors.push(`${path}: expected an object, got ${kindOf(value)}`);
      return;
    }
    const expected = reference as Record<string, unknown>;
    for (const key of Object.keys(value)) {
      if (!(key in expected)) errors.push(`${path}.${key}: unknown field`);
    }
    for (const key of Object.keys(expected)) {
      if (!(key in value)) errors.push(`${path}.${key}: missing`);
      else checkValue(`${path}.${key}`, value[key]!, expected[key], errors);
    }
  }
}

/**
 * Checks `value` against the default config: every field must be one of its fields, with a value of the
 * same type (numbers finite; lists of the same item type; nested objects with exactly the same keys), and
 * choices respected. Missing fields take their default values and are listed.
 */
function validateConfig<T extends object>(
  value: unknown,
  defaults: T,
  rules: Partial<Record<keyof T & string, FieldRule>> = {},
): ImportResult {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, errors: [`expected a config object, got ${kindOf(value)}`] };
  }
  const input = value as ConfigObject;
  const reference = defaults as unknown as Record<string, unknown>;
  const errors: string[] = [];
  for (const key of Object.keys(input)) {
    if (!Object.prototype.hasOwnProperty.call(reference, key)) {
      errors.push(`${key}: unknown field (known fields: ${Object.keys(reference).join(', ')})`);
    }
  }
  const config: ConfigObject = {};
  const missing: string[] = [];
  for (const key of Object.keys(reference)) {
    if (!Object.prototype.hasOwnProperty.call(input, key)) {
      missing.push(key);
      config[key] = structuredClone(reference[key]) as ConfigValue;
      continue;
    }
    const before = errors.length;
    checkValue(key, input[key]!, reference[key], errors);
    const choices = (rules as Record<string, FieldRule | undefined>)[key]?.choices;
    if (errors.length === before && choices && !choices.includes(input[key] as string)) {
      errors.push(
        `${key}: expected one of ${choices.map((c) => `'${c}'`).join(', ')}, got '${String(input[key])}'`,
      );
    }
    config[key] = input[key]!;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, config, missing };
}

/** Reads and checks a pasted or uploaded config text (see parseConfigLiteral and validateConfig). */
export function importConfig<T extends object>(
  text: string,
  defaults: T,
  options: { constName?: string; rules?: Partial<Record<keyof T & string, FieldRule>> } = {},
): ImportResult {
  if (!text.trim()) return { ok: false, errors: ['the text is empty'] };
  let value: ConfigObject;
  try {
    value = parseConfigLiteral(text, options.constName);
  } catch (error) {
    return { ok: false, errors: [error instanceof Error ? error.message : String(error)] };
  }
  return validateConfig(value, defaults, options.rules);
}
