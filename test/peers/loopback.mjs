// Preloaded (`node --import`) into a third-party server that chooses its own address: server-everything
// listens on $PORT (default 3001) on every interface, and fastmcp never says which port a port 0 got.
// Tests run beside each other on one machine and may listen on loopback only, on a port the system
// picks: so every TCP server of this process listens on 127.0.0.1, port 0, whatever it asked for,
// and announces `listening on http://127.0.0.1:<port>` on stderr (what startListening waits for).
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const callback = typeof args.at(-1) === "function" ? args.pop() : undefined;
  this.once("listening", () => {
    process.stderr.write(`listening on http://127.0.0.1:${this.address().port}\n`);
  });
  return listen.call(this, { host: "127.0.0.1", port: 0 }, callback);
};
