// What a run's output must never hold: a stack trace, whether Node's own frames, a line of the
// suite's transport, or an `at …(file:line:column)` frame. A hostile or broken target gets a verdict
// and a reason, not the suite's call chain.
export const STACK_TRACE = /node:internal|fixtures\/transport\/\w+\.ts:\d+|^\s+at .*\((?:file:|\/).*\.(?:js|ts):\d+:\d+\)$/m;
