/**
 * Console capture while serving stdio: console output goes to the error stream (stdout carries
 * only messages), and the console is restored afterwards.
 */
import { describe, expect, it } from "vitest";
import { success } from "../../../runtime/shared/jsonrpc.js";
import { harness, line, req } from "../../helpers/stdio-harness.js";

describe("stdio console capture", () => {
  it("redirects console output to the error stream while serving, and restores it", async () => {
    const log = console.log;
    const info = console.info;
    const h = harness(
      {
        noisy: (m) => {
          console.log("noise from log");
          console.info("noise from info");
          console.debug("noise from debug");
          console.table([{ a: 1 }]);
          return { response: success(m["id"] as number, {}), httpStatus: 200 };
        },
      },
      { captureConsole: true },
    );
    expect(console.log).not.toBe(log);
    h.input.write(line(req(1, "noisy")));
    const out = await h.finish();
    expect(out).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    expect(h.errorText()).toContain("noise from log");
    expect(h.errorText()).toContain("noise from info");
    expect(h.errorText()).toContain("noise from debug");
    expect(console.log).toBe(log);
    expect(console.info).toBe(info);
  });
});
