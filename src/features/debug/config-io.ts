/**
 * Export and import of scene configs as text, as plain functions (no DOM, no React): a tuned config becomes
 * the content of the scene's config.ts (a TypeScript object literal in the file's own style), and a pasted
 * or uploaded text (the whole config.ts, the `export const ...` statement, the bare object literal or JSON)
 * becomes a config again. Text is never evaluated: a small tokenizer reads plain data only (numbers,
 * strings, booleans, arrays, objects) and the result is checked against the default config, field by field.
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
  const text = String(value);
  // 10000 → 10_000, 3000 → 3_000, as the config files write long integers
  if (Number.isInteger(value) && Math.abs(value) >= 1_000 && !/e/i.test(text)) {
    return text.replace(/\B(?=(\d{3})+(?!\d))/g, '_');
  }
  return text;
}

function formatString(value: string): string {
  const escaped = value
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `'${escaped}'`;
}

function formatKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : formatString(key);
}

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

/** The config as a TypeScript object literal in the style of the config files (hex colours, 10_000). */
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
    try {
      const found = locateLiteral(tokenize(source), declaration.constName);
      if (found && found.declared) {
        const end = found.end < source.length && source[found.end] === ';' ? found.end + 1 : found.end;
        return `${source.slice(0, found.statementStart)}${statement}${source.slice(end)}`;
      }
    } catch {
      // an unreadable file: fall through to the statement alone
    }
  }
  return `${statement}\n`;
}

/** The config as JSON (colours as plain numbers), for tools that want it. */
export function exportConfigJson(config: ConfigObject): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}

// ── tokenizer ─────────────────────────────────────────────────────────────────

/** 'invalid': something the parser cannot take as data (e.g. a template with ${...}); text says why. */
type TokenType = 'punct' | 'number' | 'string' | 'name' | 'invalid';

interface Token {
  type: TokenType;
  /** The punctuation or name itself; the decoded string; the number's source text; why it is invalid. */
  text: string;
  value?: number;
  start: number;
  end: number;
}

class ConfigSyntaxError extends Error {
  constructor(message: string, source: string, at: number) {
    super(`${message} (line ${lineOf(source, at)}, column ${columnOf(source, at)})`);
    this.name = 'ConfigSyntaxError';
  }
}

function lineOf(source: string, at: number): number {
  let line = 1;
  for (let i = 0; i < at && i < source.length; i++) if (source[i] === '\n') line++;
  return line;
}

function columnOf(source: string, at: number): number {
  const lineStart = source.lastIndexOf('\n', at - 1) + 1;
  return at - lineStart + 1;
}

const NUMBER =
  /^(?:0[xX][0-9a-fA-F](?:_?[0-9a-fA-F])*|0[bB][01](?:_?[01])*|0[oO][0-7](?:_?[0-7])*|(?:\d(?:_?\d)*)?\.?\d(?:_?\d)*(?:[eE][+-]?\d(?:_?\d)*)?)/;

/** Offset just after the `}` closing the `${` at `at` inside a template literal. */
function skipSubstitution(source: string, at: number): number {
  let depth = 0;
  for (let i = at + 1; i < source.length; i++) {
    const c = source[i]!;
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
    else if (c === '"' || c === "'" || c === '`') i = readString(source, i).end - 1;
  }
  throw new ConfigSyntaxError('unterminated template literal', source, at);
}

function readString(source: string, start: number): { text: string; end: number; code?: boolean } {
  const quote = source[start]!;
  let text = '';
  let code = false;
  let i = start + 1;
  while (i < source.length) {
    const c = source[i]!;
    if (c === quote) return { text, end: i + 1, code };
    if (quote === '`' && c === '$' && source[i + 1] === '{') {
      code = true;
      i = skipSubstitution(source, i + 1);
      continue;
    }
    if ((c === '\n' || c === '\r') && quote !== '`') {
      throw new ConfigSyntaxError('unterminated string', source, start);
    }
    if (c !== '\\') {
      text += c;
      i++;
      continue;
    }
    const next = source[i + 1];
    if (next === undefined) break;
    const simple: Record<string, string> = {
      n: '\n',
      r: '\r',
      t: '\t',
      b: '\b',
      f: '\f',
      v: '\v',
      '0': '\0',
    };
    if (next in simple && !(next === '0' && /\d/.test(source[i + 2] ?? ''))) {
      text += simple[next];
      i += 2;
    } else if (next === 'x') {
      const hex = source.slice(i + 2, i + 4);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new ConfigSyntaxError('bad \\x escape', source, i);
      text += String.fromCharCode(parseInt(hex, 16));
      i += 4;
    } else if (next === 'u') {
      const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(source.slice(i + 2));
      const plain = /^[0-9a-fA-F]{4}/.exec(source.slice(i + 2));
      if (braced) {
        text += String.fromCodePoint(parseInt(braced[1]!, 16));
        i += 2 + braced[0].length;
      } else if (plain) {
        text += String.fromCharCode(parseInt(plain[0], 16));
        i += 6;
      } else {
        throw new ConfigSyntaxError('bad \\u escape', source, i);
      }
    } else if (next === '\r' || next === '\n') {
      // a line continuation
      i += next === '\r' && source[i + 2] === '\n' ? 3 : 2;
    } else {
      text += next;
      i += 2;
    }
  }
  throw new ConfigSyntaxError('unterminated string', source, start);
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (/\s/.test(c) || c === '\uFEFF') {
      i++;
    } else if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i);
      i = end < 0 ? source.length : end + 1;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) throw new ConfigSyntaxError('unterminated comment', source, i);
      i = end + 2;
    } else if (c === '"' || c === "'" || c === '`') {
      const { text, end, code } = readString(source, i);
      tokens.push(
        code
          ? { type: 'invalid', text: 'a template literal with ${...} is code, not data', start: i, end }
          : { type: 'string', text, start: i, end },
      );
      i = end;
    } else if (/\d/.test(c) || (c === '.' && /\d/.test(source[i + 1] ?? ''))) {
      const text = NUMBER.exec(source.slice(i))?.[0] ?? c;
      const value = Number(text.replace(/_/g, ''));
      const tail = /^[\w$]+/.exec(source.slice(i + text.length))?.[0] ?? '';
      if (!Number.isFinite(value) || tail) {
        const bad = text + tail;
        tokens.push({ type: 'invalid', text: `"${bad}" is not a number`, start: i, end: i + bad.length });
        i += bad.length;
      } else {
        tokens.push({ type: 'number', text, value, start: i, end: i + text.length });
        i += text.length;
      }
    } else if (/[A-Za-z_$]/.test(c)) {
      const match = /^[\w$]+/.exec(source.slice(i))!;
      tokens.push({ type: 'name', text: match[0], start: i, end: i + match[0].length });
      i += match[0].length;
    } else {
      // any other character is punctuation: fine around the literal, refused inside it
      const char = String.fromCodePoint(source.codePointAt(i)!);
      tokens.push({ type: 'punct', text: char, start: i, end: i + char.length });
      i += char.length;
    }
  }
  return tokens;
}

// ── parser ────────────────────────────────────────────────────────────────────

interface Located {
  /** Index of the literal's opening brace among the tokens. */
  token: number;
  /** Source offset where the whole statement starts (the `export` of `export const`), for replacing it. */
  statementStart: number;
  /** Source offset just after the literal's closing brace. */
  end: number;
  /** Found as `const <name> ... = {`. */
  declared: boolean;
}

/**
 * Where the config literal starts: after `const <constName>[: Type] =`, else after the first `= {` of a
 * `const` (any name), else the first token when the text starts with `{` (a bare literal or JSON).
 */
function locateLiteral(tokens: Token[], constName?: string): Located | null {
  const declarations: { name: string; at: number; start: number }[] = [];
  for (let i = 0; i < tokens.length - 1; i++) {
    if (tokens[i]!.type === 'name' && tokens[i]!.text === 'const' && tokens[i + 1]!.type === 'name') {
      const exported = i > 0 && tokens[i - 1]!.text === 'export' && tokens[i - 1]!.type === 'name';
      const start = exported ? tokens[i - 1]!.start : tokens[i]!.start;
      // skip the type annotation up to the first '=' at depth 0
      let depth = 0;
      for (let j = i + 2; j < tokens.length; j++) {
        const t = tokens[j]!;
        if (t.type === 'punct' && (t.text === '<' || t.text === '(' || t.text === '[')) depth++;
        else if (t.type === 'punct' && (t.text === '>' || t.text === ')' || t.text === ']')) depth--;
        else if (t.type === 'punct' && t.text === ';') break;
        else if (depth <= 0 && t.type === 'punct' && t.text === '=') {
          if (tokens[j + 1]?.type === 'punct' && tokens[j + 1]!.text === '{') {
            declarations.push({ name: tokens[i + 1]!.text, at: j + 1, start });
          }
          break;
        }
      }
    }
  }
  const chosen = declarations.find((d) => d.name === constName) ?? declarations[0];
  if (chosen) {
    const end = skipValue(tokens, chosen.at);
    return { token: chosen.at, statementStart: chosen.start, end: tokens[end - 1]!.end, declared: true };
  }
  if (tokens[0]?.type === 'punct' && tokens[0].text === '{') {
    const end = skipValue(tokens, 0);
    return { token: 0, statementStart: tokens[0].start, end: tokens[end - 1]!.end, declared: false };
  }
  return null;
}

/** Index just after the bracketed value starting at tokens[at]. */
function skipValue(tokens: Token[], at: number): number {
  let depth = 0;
  for (let i = at; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== 'punct') continue;
    if (t.text === '{' || t.text === '[') depth++;
    else if (t.text === '}' || t.text === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return tokens.length;
}

class Parser {
  private i: number;
  constructor(
    private readonly tokens: Token[],
    private readonly source: string,
    start: number,
  ) {
    this.i = start;
  }

  get position(): number {
    return this.i;
  }

  private fail(message: string, token?: Token): never {
    throw new ConfigSyntaxError(message, this.source, token?.start ?? this.source.length);
  }

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private next(): Token {
    const token = this.tokens[this.i++];
    if (!token) this.fail('the text ends in the middle of the config');
    return token;
  }

  private isPunct(text: string): boolean {
    const t = this.peek();
    return t?.type === 'punct' && t.text === text;
  }

  private expect(text: string): void {
    const t = this.next();
    if (t.type !== 'punct' || t.text !== text) this.fail(`expected "${text}", found ${describe(t)}`, t);
  }

  value(): ConfigValue {
    const t = this.next();
    if (t.type === 'invalid') this.fail(t.text, t);
    if (t.type === 'number') return t.value!;
    if (t.type === 'string') return t.text;
    if (t.type === 'punct' && (t.text === '-' || t.text === '+')) {
      const n = this.next();
      if (n.type !== 'number') this.fail(`expected a number after "${t.text}", found ${describe(n)}`, n);
      return t.text === '-' ? -n.value! : n.value!;
    }
    if (t.type === 'punct' && t.text === '{') return this.object();
    if (t.type === 'punct' && t.text === '[') return this.array();
    if (t.type === 'name') {
      if (t.text === 'true') return true;
      if (t.text === 'false') return false;
      if (t.text === 'null') return null;
      this.fail(`"${t.text}" is code, not a value: write the value itself`, t);
    }
    return this.fail(`unexpected ${describe(t)}`, t);
  }

  private object(): ConfigObject {
    const result: ConfigObject = {};
    while (!this.isPunct('}')) {
      const key = this.next();
      if (key.type === 'punct' && key.text === '.') this.fail('spread (...) is code, not data', key);
      if (key.type !== 'name' && key.type !== 'string' && key.type !== 'number') {
        this.fail(`expected a field name, found ${describe(key)}`, key);
      }
      const name = key.type === 'number' ? String(key.value) : key.text;
      if (Object.prototype.hasOwnProperty.call(result, name))
        this.fail(`field "${name}" is given twice`, key);
      if (name === '__proto__') this.fail('"__proto__" is not a config field', key);
      this.expect(':');
      result[name] = this.value();
      if (this.isPunct(',')) this.next();
      else if (!this.isPunct('}')) {
        const t = this.peek();
        this.fail(`expected "," or "}", found ${t ? describe(t) : 'the end of the text'}`, t);
      }
    }
    this.next();
    return result;
  }

  private array(): ConfigValue[] {
    const result: ConfigValue[] = [];
    while (!this.isPunct(']')) {
      result.push(this.value());
      if (this.isPunct(',')) this.next();
      else if (!this.isPunct(']')) {
        const t = this.peek();
        this.fail(`expected "," or "]", found ${t ? describe(t) : 'the end of the text'}`, t);
      }
    }
    this.next();
    return result;
  }
}

function describe(token: Token): string {
  if (token.type === 'invalid') return token.text;
  if (token.type === 'string') return `the string ${JSON.stringify(token.text)}`;
  if (token.type === 'number') return `the number ${token.text}`;
  return `"${token.text}"`;
}

/**
 * The config literal in `text` (a whole config.ts, the `export const` statement, a bare object literal or
 * JSON) as plain data; throws ConfigSyntaxError with a line and column when it cannot be read.
 */
export function parseConfigLiteral(text: string, constName?: string): ConfigObject {
  const tokens = tokenize(text);
  const found = locateLiteral(tokens, constName);
  if (!found) {
    throw new ConfigSyntaxError(
      'no config found: paste the config file, its "export const ... = {...}" statement or a JSON object',
      text,
      0,
    );
  }
  const parser = new Parser(tokens, text, found.token);
  const value = parser.value();
  if (!found.declared) {
    // a bare literal or JSON: nothing but an optional ';' may follow
    const rest = tokens.slice(parser.position).filter((t) => !(t.type === 'punct' && t.text === ';'));
    if (rest.length > 0)
      throw new ConfigSyntaxError(`unexpected ${describe(rest[0]!)}`, text, rest[0]!.start);
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
