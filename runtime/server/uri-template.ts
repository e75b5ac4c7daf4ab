/**
 * RFC 6570 URI templates, read the other way round: given a template and a URI, the variable
 * values that expand to it (what `resources/read` needs to find the resource template a URI
 * belongs to). Levels 1 to 4: every operator, prefix modifiers and explode. Revision-independent;
 * copied verbatim into generated output.
 *
 * A URI comes from the client, so matching must cost time linear in its length whatever the
 * template: a backtracking regular expression takes quadratic time on adjacent captures
 * (`{a}{b}`), cubic on three. The template is compiled to a small program of character tests and
 * prioritized branches, run as a Pike VM: every possible match is followed at once, one step per
 * character of the URI, each program position at most once per step. Branch priorities are those of
 * the lazy and greedy quantifiers the expansion's grammar calls for, so the variables found are the
 * ones a backtracking matcher would find.
 */

export type UriVariables = Record<string, string | string[]>;

/** URIs longer than this (in UTF-16 units) match no template: no client needs one, and it costs nothing to refuse. */
export const MAX_URI_LENGTH = 65_536;

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

/** The operators whose expansion keeps reserved characters (`/` among them) unencoded. */
const RESERVED_OPERATORS: ReadonlySet<string> = new Set(["+", "#"]);

// ---------------------------------------------------------------------------------------------
// The program: one instruction per slot of parallel arrays
// ---------------------------------------------------------------------------------------------

/** Instruction kinds. `CHAR` and `CLASS` consume one character; the others move without consuming. */
const CHAR = 0; // the character `arg`
const CLASS = 1; // a character of class `arg`
const SPLIT = 2; // go on at `arg` (preferred) and at `alt`
const JMP = 3; // go on at `arg`
const SAVE = 4; // record the position in capture slot `arg`
const MATCH = 5; // the template is matched (only at the URI's end: it is anchored at both)

/** Character classes of the captures: what a value of each kind of expansion may hold unencoded. */
const ANY = 0; // any character but a line terminator (reserved expansion)
const NOT_DELIMITER = 1; // no `/`, `?` or `#` (simple, path, label and parameter values)
const NOT_FRAGMENT = 2; // no `#` (query values)

function inClass(kind: number, c: number): boolean {
  switch (kind) {
    case ANY:
      return c !== 0x0a && c !== 0x0d && c !== 0x2028 && c !== 0x2029;
    case NOT_DELIMITER:
      return c !== 0x2f && c !== 0x3f && c !== 0x23;
    default:
      return c !== 0x23;
  }
}

class Program {
  readonly op: number[] = [];
  readonly arg: number[] = [];
  readonly alt: number[] = [];

  get next(): number {
    return this.op.length;
  }

  emit(op: number, arg = 0, alt = 0): number {
    this.op.push(op);
    this.arg.push(arg);
    this.alt.push(alt);
    return this.op.length - 1;
  }

  literal(text: string): void {
    for (let i = 0; i < text.length; i++) this.emit(CHAR, text.charCodeAt(i));
  }

  /** `class*?` (lazy: as few characters as will do) or `class*` (greedy). */
  star(kind: number, lazy: boolean): void {
    const split = this.emit(SPLIT);
    const body = this.emit(CLASS, kind);
    this.emit(JMP, split);
    this.branch(split, body, this.next, lazy);
  }

  /** Points a SPLIT at its two ways on: the loop body and the exit, preferring the exit when lazy. */
  branch(split: number, body: number, exit: number, lazy: boolean): void {
    this.arg[split] = lazy ? exit : body;
    this.alt[split] = lazy ? body : exit;
  }
}

/**
 * The expression's whole expansion (possibly empty), between its capture slots, in the grammar of
 * the regular expressions a backtracking matcher would use:
 * `+` `(.*?)`, `/` `((?:/[^/?#]*)*?)`, `?` `&` `#` `((?:X[^#]*?)?)`, `.` `;` `((?:X[^/?#]*?)?)`,
 * simple `([^/?#]*?)`.
 */
function compileExpression(program: Program, { operator }: Expression, index: number): void {
  program.emit(SAVE, 2 * index);
  switch (operator) {
    case "+":
      program.star(ANY, true);
      break;
    case "/": {
      const loop = program.emit(SPLIT);
      const body = program.emit(CHAR, 0x2f);
      program.star(NOT_DELIMITER, false);
      program.emit(JMP, loop);
      program.branch(loop, body, program.next, true);
      break;
    }
    case "?":
    case "&":
    case "#":
    case ".":
    case ";": {
      const optional = program.emit(SPLIT);
      const body = program.emit(CHAR, operator.charCodeAt(0));
      const kind = operator === "." || operator === ";" ? NOT_DELIMITER : NOT_FRAGMENT;
      program.star(kind, true);
      program.branch(optional, body, program.next, false);
      break;
    }
    default:
      program.star(NOT_DELIMITER, true);
  }
  program.emit(SAVE, 2 * index + 1);
}

/** One step's threads, in priority order: their positions, and each position's captures in a row of its own. */
class Threads {
  readonly captures: Int32Array;
  readonly pcs: Int32Array;
  count = 0;

  constructor(size: number, slots: number) {
    this.captures = new Int32Array(size * slots);
    this.pcs = new Int32Array(size);
  }
}

/**
 * Runs a program over whole texts: the capture positions of the highest-priority match, or `null`.
 * Threads are kept in priority order; each program position joins a step at most once (the first,
 * highest-priority thread to reach it wins), so a step costs at most the program's length, and
 * allocates nothing. Its tables are made once per template and reused: a run is synchronous.
 */
class Machine {
  private current: Threads;
  private next: Threads;
  /** The step each position last joined (so that a step's table need not be cleared). */
  private readonly seen: Int32Array;
  /** The captures of the thread being followed; SAVE changes them, and the stack puts them back. */
  private readonly work: Int32Array;
  /** Pairs: a position to follow, or (as `-1 - slot`) a capture slot to restore, and its value. */
  private readonly stack: Int32Array;
  private readonly op: Int32Array;
  private readonly arg: Int32Array;
  private readonly alt: Int32Array;
  /** Positions the last run followed: at most the program's length per character, plus one step (tests hold it to that). */
  visits = 0;

  constructor(
    program: Program,
    private readonly slots: number,
  ) {
    const size = program.op.length;
    this.op = Int32Array.from(program.op);
    this.arg = Int32Array.from(program.arg);
    this.alt = Int32Array.from(program.alt);
    this.current = new Threads(size, slots);
    this.next = new Threads(size, slots);
    this.seen = new Int32Array(size);
    this.work = new Int32Array(slots);
    // Each position followed pushes at most two pairs.
    this.stack = new Int32Array(4 * size + 4);
  }

  run(text: string): Int32Array | null {
    const { op, arg, slots } = this;
    this.seen.fill(-1);
    this.work.fill(0);
    this.visits = 0;
    this.current.count = 0;
    this.next.count = 0;
    this.add(this.current, 0, 0, 0);
    for (let at = 0; ; at++) {
      const { current, next } = this;
      const c = at < text.length ? text.charCodeAt(at) : -1;
      for (let i = 0; i < current.count; i++) {
        const pc = current.pcs[i]!;
        const kind = op[pc];
        if (kind === MATCH) {
          // Every thread after this one has a lower priority.
          if (at === text.length) return current.captures.slice(pc * slots, (pc + 1) * slots);
          continue;
        }
        if (c < 0 || !(kind === CHAR ? c === arg[pc] : inClass(arg[pc]!, c))) continue;
        this.work.set(current.captures.subarray(pc * slots, (pc + 1) * slots));
        this.add(next, at + 1, pc + 1, at + 1);
      }
      if (at >= text.length || next.count === 0) return null;
      this.current = next;
      this.next = current;
      current.count = 0;
    }
  }

  /** Adds the thread at `from` with `work`'s captures, following moves that consume nothing, in priority order. */
  private add(into: Threads, step: number, from: number, at: number): void {
    const { op, arg, alt, seen, work, stack, slots } = this;
    let top = 0;
    stack[top++] = from;
    stack[top++] = 0;
    while (top > 0) {
      const value = stack[--top]!;
      const pc = stack[--top]!;
      if (pc < 0) {
        work[-1 - pc] = value;
        continue;
      }
      if (seen[pc] === step) continue;
      seen[pc] = step;
      this.visits++;
      switch (op[pc]) {
        case JMP:
          stack[top++] = arg[pc]!;
          stack[top++] = 0;
          break;
        case SPLIT:
          // Pushed last, popped first: the preferred way is followed first.
          stack[top++] = alt[pc]!;
          stack[top++] = 0;
          stack[top++] = arg[pc]!;
          stack[top++] = 0;
          break;
        case SAVE: {
          const slot = arg[pc]!;
          stack[top++] = -1 - slot;
          stack[top++] = work[slot]!;
          work[slot] = at;
          stack[top++] = pc + 1;
          stack[top++] = 0;
          break;
        }
        default:
          into.captures.set(work, pc * slots);
          into.pcs[into.count++] = pc;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------

/** A parsed template: `match(uri)` gives its variables, or `null` when the URI is not one of its expansions. */
export class UriTemplate {
  readonly variableNames: readonly string[];
  private readonly program = new Program();
  /** The program's machine, made on the first match. */
  private machine: Machine | undefined;
  private readonly expressions: Expression[] = [];
  /** What every match starts and ends with: a URI without them is refused before the program runs. */
  private readonly prefix: string;
  private readonly suffix: string;
  /** Variables of reserved expansions (`{+x}`, `{#x}`), whose values may hold `/`. */
  private readonly reserved = new Set<string>();

  constructor(readonly template: string) {
    let at = 0;
    const literals: string[] = [];
    for (const found of template.matchAll(/\{([^{}]*)\}/g)) {
      literals.push(template.slice(at, found.index));
      this.program.literal(template.slice(at, found.index));
      at = found.index + found[0].length;
      const expression = parseExpression(found[1]!, template);
      compileExpression(this.program, expression, this.expressions.length);
      this.expressions.push(expression);
    }
    if (/[{}]/.test(template.slice(at))) throw new Error(`malformed URI template: ${template}`);
    literals.push(template.slice(at));
    this.program.literal(template.slice(at));
    this.program.emit(MATCH);
    this.prefix = literals[0]!;
    this.suffix = literals.length > 1 ? literals.at(-1)! : "";
    this.variableNames = this.expressions.flatMap((e) => e.variables.map((v) => v.name));
    for (const expression of this.expressions)
      if (RESERVED_OPERATORS.has(expression.operator))
        for (const variable of expression.variables) this.reserved.add(variable.name);
  }

  /** How many program positions the last run of the program followed (see `Machine.visits`). */
  get work(): number {
    return this.machine?.visits ?? 0;
  }

  /** The program's length: a match follows at most this many positions per character of the URI, plus one step. */
  get size(): number {
    return this.program.op.length;
  }

  /** The variables `uri` expands from, or `null`; a URI longer than `maxLength` matches nothing. */
  match(uri: string, maxLength: number = MAX_URI_LENGTH): UriVariables | null {
    if (uri.length > maxLength) return null;
    if (this.expressions.length === 0) return uri === this.template ? {} : null;
    if (
      uri.length < this.prefix.length + this.suffix.length ||
      !uri.startsWith(this.prefix) ||
      !uri.endsWith(this.suffix)
    )
      return null;
    this.machine ??= new Machine(this.program, 2 * this.expressions.length);
    const captures = this.machine.run(uri);
    if (!captures) return null;
    const variables: UriVariables = {};
    try {
      this.expressions.forEach((expression, i) =>
        readExpression(expression, uri.slice(captures[2 * i], captures[2 * i + 1]), variables),
      );
    } catch {
      return null; // a malformed percent-encoding is no expansion of the template
    }
    return variables;
  }

  /**
   * Why the decoded variables of a match are unsafe to hand to a handler that may use them as a
   * path, or `null` when they are not: a value holding a control character (NUL included), a `..`
   * segment (between `/` or `\`), or a `/` where the expansion is not a reserved one (it can only
   * have come percent-encoded, as `%2F`, to get past the template's own delimiters).
   */
  unsafeValue(variables: UriVariables): string | null {
    for (const [name, value] of Object.entries(variables))
      for (const one of Array.isArray(value) ? value : [value]) {
        const reason = unsafeReason(one, this.reserved.has(name));
        if (reason !== null) return `${name} ${reason}`;
      }
    return null;
  }
}

/** Whether `value` holds a C0 or C1 control character or DEL. */
function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

function unsafeReason(value: string, reserved: boolean): string | null {
  if (hasControl(value)) return "holds a control character";
  if (value.split(/[/\\]/).includes("..")) return "holds a '..' path segment";
  if (!reserved && value.includes("/")) return "holds a '/' its expansion does not allow";
  return null;
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
      const previous = Object.hasOwn(into, name) ? into[name] : undefined;
      if (declared.explode && previous !== undefined)
        setVariable(into, name, [...(Array.isArray(previous) ? previous : [previous]), value]);
      else if (declared.explode || previous === undefined) setVariable(into, name, value);
    }
    return;
  }
  const values = parts.map((part) => decodeURIComponent(part));
  const last = expression.variables.at(-1);
  expression.variables.forEach((variable, i) => {
    if (i >= values.length) return;
    // An exploded last variable takes every remaining value.
    if (variable === last && variable.explode && values.length > i + 1)
      setVariable(into, variable.name, values.slice(i));
    else setVariable(into, variable.name, values[i]!);
  });
}

/**
 * A variable's value, as an own property whatever its name: a template's `{__proto__}` would set
 * the object's prototype by assignment, and a `{?constructor}` read the inherited function.
 */
function setVariable(into: UriVariables, name: string, value: string | string[]): void {
  Object.defineProperty(into, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
