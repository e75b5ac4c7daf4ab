/**
 * The oracle of test/runtime/server/uri-template.test.ts: the backtracking matcher the runtime's linear one
 * replaced (a regular expression per template, lazy and greedy quantifiers giving the variables),
 * kept as it was. It takes quadratic time on adjacent captures, so it is only ever given short URIs.
 */

export type UriVariables = Record<string, string | string[]>;

interface Expression {
  operator: string;
  variables: Array<{ name: string; explode: boolean }>;
}

/** Per operator (RFC 6570 appendix A): what it starts with, what separates values, whether values are named. */
const OPERATORS: Readonly<Record<string, { first: string; separator: string; named: boolean }>> = {
  "": { first: "", separator: ",", named: false },
  "+": { first: "", separator: ",", named: false },
  "#": { first: "#", separator: ",", named: false },
  ".": { first: ".", separator: ".", named: false },
  "/": { first: "/", separator: "/", named: false },
  ";": { first: ";", separator: ";", named: true },
  "?": { first: "?", separator: "&", named: true },
  "&": { first: "&", separator: "&", named: true },
};

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A parsed template: `match(uri)` gives its variables, or `null` when the URI is not one of its expansions. */
export class BacktrackingUriTemplate {
  readonly variableNames: readonly string[];
  private readonly pattern: RegExp;
  private readonly expressions: Expression[] = [];

  constructor(readonly template: string) {
    let source = "^";
    let at = 0;
    for (const found of template.matchAll(/\{([^{}]*)\}/g)) {
      source += escapeRegExp(template.slice(at, found.index));
      at = found.index + found[0].length;
      const expression = parseExpression(found[1]!, template);
      this.expressions.push(expression);
      source += captureFor(expression);
    }
    if (/[{}]/.test(template.slice(at))) throw new Error(`malformed URI template: ${template}`);
    source += `${escapeRegExp(template.slice(at))}$`;
    this.pattern = new RegExp(source);
    this.variableNames = this.expressions.flatMap((e) => e.variables.map((v) => v.name));
  }

  match(uri: string): UriVariables | null {
    const found = this.pattern.exec(uri);
    if (!found) return null;
    const variables: UriVariables = {};
    try {
      this.expressions.forEach((expression, i) =>
        readExpression(expression, found[i + 1] ?? "", variables),
      );
    } catch {
      return null; // a malformed percent-encoding is no expansion of the template
    }
    return variables;
  }
}

function parseExpression(body: string, template: string): Expression {
  const operator = body[0] !== undefined && body[0] in OPERATORS ? body[0] : "";
  const list = body.slice(operator.length);
  if (!list) throw new Error(`malformed URI template: ${template}`);
  const variables = list.split(",").map((spec) => {
    const explode = spec.endsWith("*");
    const name = (explode ? spec.slice(0, -1) : spec).replace(/:\d+$/, "");
    if (!/^(?:[A-Za-z0-9_.]|%[0-9A-Fa-f]{2})+$/.test(name))
      throw new Error(`malformed URI template: ${template}`);
    return { name, explode };
  });
  return { operator, variables };
}

/** The regular expression capturing an expression's whole expansion (possibly empty). */
function captureFor({ operator }: Expression): string {
  switch (operator) {
    case "+":
      return "(.*?)"; // reserved expansion may hold any URI character
    case "/":
      return "((?:/[^/?#]*)*?)";
    case "?":
    case "&":
    case "#":
      return `((?:${escapeRegExp(operator)}[^#]*?)?)`;
    case ".":
    case ";":
      return `((?:${escapeRegExp(operator)}[^/?#]*?)?)`;
    default:
      return "([^/?#]*?)"; // simple expansion encodes the characters that delimit URI parts
  }
}

function readExpression(expression: Expression, text: string, into: UriVariables): void {
  const { first, separator, named } = OPERATORS[expression.operator]!;
  if (!text) return;
  const parts = text.slice(first.length).split(separator);
  if (named) {
    for (const part of parts) {
      const eq = part.indexOf("=");
      const name = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
      const value = eq < 0 ? "" : decodeURIComponent(part.slice(eq + 1));
      const declared = expression.variables.find((v) => v.name === name);
      if (!declared) continue;
      const previous = into[name];
      if (declared.explode && previous !== undefined)
        into[name] = [...(Array.isArray(previous) ? previous : [previous]), value];
      else if (declared.explode || previous === undefined) into[name] = value;
    }
    return;
  }
  const values = parts.map((part) => decodeURIComponent(part));
  const last = expression.variables.at(-1);
  expression.variables.forEach((variable, i) => {
    if (i >= values.length) return;
    // An exploded last variable takes every remaining value.
    if (variable === last && variable.explode && values.length > i + 1)
      into[variable.name] = values.slice(i);
    else into[variable.name] = values[i]!;
  });
}
