/*
 * server-auth.test.ts again, its servers served through the web-standard fetch handler (test/helpers/http-paths.ts).
 */
import { useFetchPath } from "../../helpers/http-paths.js";

useFetchPath();
await import("./server-auth.test.js");
