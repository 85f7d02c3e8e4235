// Node's flags for the test processes of every package that starts a server in-process.
//
// --liftoff-only: V8 compiles WebAssembly with its baseline compiler alone. A test process lives
// seconds, and the optimizing compiler's work on PGlite's 10 MB module (on V8's background threads,
// and most of the page faults a suite makes) costs it more than the faster code saves. Measured on
// the server's embedded suite, 2 cores: 260 s (310 s user, 187 s system) without it, 214 s (265 s,
// 139 s) with it. Semantics do not change; the servers the benchmarks and users start keep both tiers.
export const TEST_EXEC_ARGV = ['--liftoff-only'];
