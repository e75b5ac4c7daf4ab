/**
 * RFC 6570 templates matched against URIs (`resources/read` finding its resource template): the
 * variables found, in time linear in the URI whatever the template (#25 item 3: a 250 KiB URI
 * against adjacent captures took 33 s on the backtracking matcher this replaced), agreeing with
 * that matcher, and the decoded values a handler could take as a path checked.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_URI_LENGTH, UriTemplate } from "../../../runtime/server/uri-template.js";
import { BacktrackingUriTemplate } from "../../helpers/uri-template-oracle.js";

describe("UriTemplate.match", () => {
  it.each([
    ["file:///{path}", "file:///notes.txt", { path: "notes.txt" }],
    ["file:///{+path}", "file:///a/b/c.txt", { path: "a/b/c.txt" }],
    ["users/{id}/posts/{post}", "users/7/posts/hello%20world", { id: "7", post: "hello world" }],
    ["map{?x,y}", "map?x=1&y=2", { x: "1", y: "2" }],
    ["map{?x,y}", "map?y=2", { y: "2" }],
    ["map{?x,y}", "map", {}],
    ["search{?q}{&page}", "search?q=mcp&page=3", { q: "mcp", page: "3" }],
    ["repo{/segments*}", "repo/a/b/c", { segments: ["a", "b", "c"] }],
    ["file{.ext}", "file.json", { ext: "json" }],
    ["doc{#section}", "doc#intro", { section: "intro" }],
    ["point{;x,y}", "point;x=1;y=2", { x: "1", y: "2" }],
    ["list/{a,b}", "list/1,2", { a: "1", b: "2" }],
    ["prefix/{name:3}", "prefix/abc", { name: "abc" }],
  ])("%s matches %s", (template, uri, variables) => {
    expect(new UriTemplate(template).match(uri)).toEqual(variables);
  });

  it.each([
    ["file:///{path}", "file:///a/b.txt"], // simple expansion never holds a slash
    ["users/{id}", "posts/7"],
    ["users/{id}", "users/%E0%A4%A"], // a broken percent-encoding
  ])("%s does not match %s", (template, uri) => {
    expect(new UriTemplate(template).match(uri)).toBeNull();
  });

  it("names its variables and refuses a malformed template", () => {
    expect(new UriTemplate("a/{x}/{?y,z}").variableNames).toEqual(["x", "y", "z"]);
    expect(() => new UriTemplate("a/{x")).toThrow(/malformed/);
    expect(() => new UriTemplate("a/{}")).toThrow(/malformed/);
  });
});

describe("UriTemplate.match in linear time", () => {
  // Adjacent captures, a capture of each kind, and URIs that almost match: what makes a
  // backtracking matcher try every split of the URI (quadratic for two captures, cubic for three).
  it.each([
    ["file:///{a}{b}", (n: number) => `file:///${"x".repeat(n)}/`],
    ["file:///{a}{b}{c}", (n: number) => `file:///${"x".repeat(n)}/`],
    ["file:///{+a}{+b}", (n: number) => `file:///${"x".repeat(n)}\n`],
    ["r{/a}{/b}", (n: number) => `r${"/a".repeat(n / 2)}?`],
    ["q{?a}{&b}{.c}", (n: number) => `q?a=${"x".repeat(n)}#`],
    ["x{a}{b}{;c}", (n: number) => `x${";".repeat(n)}/`],
  ])("%s follows at most (length + 1) × program positions", (template, make) => {
    const matcher = new UriTemplate(template);
    for (const n of [1_000, 60_000]) {
      const uri = make(n);
      expect(matcher.match(uri)).toBeNull();
      expect(matcher.work).toBeGreaterThan(uri.length);
      expect(matcher.work).toBeLessThanOrEqual((uri.length + 1) * matcher.size);
    }
  });

  it("still finds the variables of a long URI that matches", () => {
    const value = "v".repeat(60_000);
    // The first capture takes as little as it can (nothing: no variable), the second the rest.
    const found = new UriTemplate("file:///{a}{b}.txt").match(`file:///${value}.txt`);
    expect(Object.keys(found ?? {})).toEqual(["b"]);
    expect(found?.b === value).toBe(true);
    expect(new UriTemplate("repo{/segments*}").match(`repo${"/s".repeat(30_000)}`)).toEqual({
      segments: Array.from({ length: 30_000 }, () => "s"),
    });
  });

  it(`matches nothing longer than ${MAX_URI_LENGTH} characters (or the bound given)`, () => {
    const matcher = new UriTemplate("file:///{+path}");
    const at = (length: number) => `file:///${"p".repeat(length - 8)}`;
    expect(matcher.match(at(MAX_URI_LENGTH))).toEqual({ path: "p".repeat(MAX_URI_LENGTH - 8) });
    expect(matcher.match(at(MAX_URI_LENGTH + 1))).toBeNull();
    expect(matcher.match(at(MAX_URI_LENGTH + 1), MAX_URI_LENGTH + 1)).not.toBeNull();
    expect(matcher.match("file:///abc", 10)).toBeNull();
  });
});

describe("UriTemplate.match agrees with the backtracking matcher it replaced", () => {
  // Small alphabets, so that random URIs hit the templates' literals and delimiters often.
  const text = (alphabet: string, maxLength: number) =>
    fc.array(fc.constantFrom(...alphabet), { maxLength }).map((characters) => characters.join(""));
  const literal = text("abc/:.?#&;=,", 3);
  const expression = fc
    .tuple(
      fc.constantFrom("", "+", "#", ".", "/", ";", "?", "&"),
      fc.uniqueArray(fc.constantFrom("x", "y", "z"), { minLength: 1, maxLength: 2 }),
      fc.boolean(),
    )
    .map(([operator, names, explode]) => `{${operator}${names.join(",")}${explode ? "*" : ""}}`);
  const template = fc
    .array(fc.tuple(literal, expression), { minLength: 1, maxLength: 3 })
    .chain((parts) => literal.map((tail) => parts.map(([l, e]) => l + e).join("") + tail));
  const anyUri = text("abcxyz/:.?#&;=,%2F0A\n", 24);
  const uriFor = (t: string) =>
    fc.oneof(
      anyUri,
      // A URI the template can produce, possibly mutated: most of them match.
      fc
        .array(text("abc012", 3), { minLength: 3, maxLength: 6 })
        .map((values) => expandLoosely(t, values)),
    );

  it("on random templates and URIs", () => {
    fc.assert(
      fc.property(
        template.chain((t) => fc.tuple(fc.constant(t), uriFor(t))),
        ([t, uri]) => {
          expect(new UriTemplate(t).match(uri)).toEqual(new BacktrackingUriTemplate(t).match(uri));
        },
      ),
      { numRuns: 3000 },
    );
  });
});

/** The template with each expression replaced by a plausible expansion of `values` (not RFC-exact). */
function expandLoosely(template: string, values: string[]): string {
  let i = 0;
  return template.replace(/\{([+#./;?&]?)([^}*]*)\*?\}/g, (_all, operator: string, names: string) =>
    names
      .split(",")
      .map((name, k) => {
        const value = values[i++ % values.length]!;
        const first =
          k === 0
            ? operator === "+"
              ? ""
              : operator === "&" || operator === "?"
                ? operator
                : operator
            : ",";
        return operator === "?" || operator === "&" || operator === ";"
          ? `${k === 0 ? operator : operator === ";" ? ";" : "&"}${name}=${value}`
          : `${first}${value}`;
      })
      .join(""),
  );
}

describe("UriTemplate.unsafeValue", () => {
  it.each([
    ["file:///{+path}", "file:///a/../../etc/passwd", "path holds a '..' path segment"],
    ["file:///{+path}", "file:///..", "path holds a '..' path segment"],
    ["file:///{path}", "file:///..%2Fsecret", "path holds a '..' path segment"],
    ["file:///{path}", "file:///a%2Fb", "path holds a '/' its expansion does not allow"],
    ["file:///{path}", "file:///..%5Cwin.ini", "path holds a '..' path segment"],
    ["file:///{path}", "file:///a%00b", "path holds a control character"],
    ["file:///{+path}", "file:///a%0Ab", "path holds a control character"],
    ["file:///{path}", "file:///a%C2%85b", "path holds a control character"],
    ["repo{/segments*}", "repo/a/%2E%2E/b", "segments holds a '..' path segment"],
    ["repo{/segments*}", "repo/a/b%2Fc", "segments holds a '/' its expansion does not allow"],
    ["map{?x,y}", "map?x=1&y=%2Fetc", "y holds a '/' its expansion does not allow"],
  ])("%s refuses %s", (template, uri, reason) => {
    const matcher = new UriTemplate(template);
    const variables = matcher.match(uri);
    expect(variables).not.toBeNull();
    expect(matcher.unsafeValue(variables!)).toBe(reason);
  });

  it.each([
    ["file:///{+path}", "file:///a/b/c.txt"],
    ["file:///{+path}", "file:///a/..b/c...txt"],
    ["doc{#section}", "doc#a/b"],
    ["file:///{path}", "file:///.hidden"],
    ["users/{id}/posts/{post}", "users/7/posts/hello%20world"],
    ["repo{/segments*}", "repo/a/b/c"],
  ])("%s allows %s", (template, uri) => {
    const matcher = new UriTemplate(template);
    expect(matcher.unsafeValue(matcher.match(uri)!)).toBeNull();
  });
});
