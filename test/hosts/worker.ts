// Cloudflare Workers (workerd): the server itself is the module's default export, as its `fetch`
// is all a Worker needs. Nothing random is made at load (a Worker may not): session ids and the
// sealing secret are made on first use.
import { hostServer } from "./fixture.js";

export default hostServer();
