/** RFC 6570 templates matched against URIs (`resources/read` finding its resource template). */
import { describe, expect, it } from "vitest";
import { UriTemplate } from "../templates/runtime/uri-template.js";

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
