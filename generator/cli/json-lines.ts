/**
 * JSON with places: `parseJsonWithLines` parses like JSON.parse and also tells the line of every
 * object key (by dotted path), so that an error about a value names the line it is on. A syntax
 * error names its line too, the same on every Node version (their JSON.parse messages differ).
 */
export interface JsonWithLines {
  value: unknown;
  /** The 1-based line of the key at a dotted path (`tools.out`), or of the text's start. */
  lineOf(path: string): number;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

export function parseJsonWithLines(text: string): JsonWithLines {
  const lines = new Map<string, number>();
  let at = 0;
  let line = 1;

  const fail = (what: string): never => {
    const found = at < text.length ? `"${text[at]}"` : "the end of the file";
    throw new JsonSyntaxError(`invalid JSON: ${what}, found ${found}`, line);
  };
  const space = () => {
    while (at < text.length && /[ \t\r\n]/.test(text[at]!)) {
      if (text[at] === "\n") line++;
      at++;
    }
  };
  const expect = (char: string) => {
    if (text[at] !== char) fail(`expected "${char}"`);
    at++;
  };
  const string = (): string => {
    const start = at;
    expect('"');
    while (at < text.length && text[at] !== '"') {
      if (text[at] === "\n") fail("a line break inside a string");
      at += text[at] === "\\" ? 2 : 1;
    }
    expect('"');
    try {
      return JSON.parse(text.slice(start, at)) as string;
    } catch {
      return fail("a bad escape in a string");
    }
  };
  const literal = (): unknown => {
    const match = /^(true|false|null|-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(at));
    if (!match) return fail("expected a value");
    at += match[0].length;
    return JSON.parse(match[0]);
  };
  const value = (path: string): unknown => {
    space();
    const char = text[at];
    if (char === "{") return object(path);
    if (char === "[") return array(path);
    if (char === '"') return string();
    return literal();
  };
  const object = (path: string): Record<string, unknown> => {
    expect("{");
    const result: Record<string, unknown> = {};
    space();
    if (text[at] === "}") {
      at++;
      return result;
    }
    for (;;) {
      space();
      if (text[at] !== '"') fail("expected a key");
      const keyLine = line;
      const key = string();
      const keyPath = path ? `${path}.${key}` : key;
      if (lines.has(keyPath)) throw new JsonSyntaxError(`"${keyPath}" is given twice`, keyLine);
      lines.set(keyPath, keyLine);
      space();
      expect(":");
      result[key] = value(keyPath);
      space();
      if (text[at] === "}") {
        at++;
        return result;
      }
      if (text[at] !== ",") fail('expected "," or "}"');
      at++;
    }
  };
  const array = (path: string): unknown[] => {
    expect("[");
    const result: unknown[] = [];
    space();
    if (text[at] === "]") {
      at++;
      return result;
    }
    for (;;) {
      result.push(value(path));
      space();
      if (text[at] === "]") {
        at++;
        return result;
      }
      if (text[at] !== ",") fail('expected "," or "]"');
      at++;
    }
  };

  const parsed = value("");
  space();
  if (at < text.length) fail("expected the end of the file");
  return { value: parsed, lineOf: (path) => lines.get(path) ?? 1 };
}
