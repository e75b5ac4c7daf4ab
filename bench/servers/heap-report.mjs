// For the memory figures of bench/legacy.mjs: a server run with `--expose-gc` collects garbage on
// SIGUSR2 and prints `heap <bytes used>` on stderr.
if (globalThis.gc) {
  process.on("SIGUSR2", () => {
    globalThis.gc();
    process.stderr.write(`heap ${process.memoryUsage().heapUsed}\n`);
  });
}
