/*
 * dual-era.test.ts again, the HTTP transport's requests made by nodeFetch() (test/helpers/client-fetch.ts).
 */
import { useNodeFetch } from "../../helpers/client-fetch.js";

useNodeFetch();
await import("./dual-era.test.js");
