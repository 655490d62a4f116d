/// <reference types="node" />
// vitest globalSetup for the workers project (runs in the vitest process, where the pool prints workerd's logs):
// drops the lines workerd writes for failures the tests cause on purpose, so that a passing run has a clean log.
//
// workerd logs every failed subrequest as an "uncaught exception" with its C++ backtrace, even when the Worker
// catches the error (the tests connect to closed ports, unresolvable names and a plain-HTTP port over TLS), and it
// logs "WebSocket peer disconnected" when vitest closes its runner. Only those exact messages are dropped; any other
// line, and every test failure, still shows.

const DROPPED: readonly RegExp[] = [
  /^exception = workerd\/api\/web-socket\.c\+\+:\d+: disconnected: WebSocket peer disconnected$/,
  /^uncaught exception; source = Uncaught \(in promise\); stack = Error: (?:internal error; reference = \w+|Network connection lost\.)$/,
  /^uncaught exception; exception = workerd\/jsg\/\S+: (?:failed|disconnected): jsg\.Error: (?:internal error; reference = \w+|Network connection lost\.)$/,
  /^e = kj\/async-io-unix\.c\+\+:\d+: failed: DNS lookup failed\.; params\.host = .*$/,
  /^exception = kj\/async-io-unix\.c\+\+:\d+: disconnected: connect\(\): Connection refused$/,
  /^e = kj\/compat\/tls\.c\+\+:\d+: failed: OpenSSL error; .*$/,
  // the C++ backtrace that follows each of them: addresses inside the workerd binary only
  /^stack:(?: \S*workerd@[0-9a-f]+)+(?:; sentryErrorContext = \w+; wdErrId = \w+)?$/,
];

function quiet(chunk: string): string {
  let out = '';
  for (const line of chunk.split(/(?<=\n)/)) {
    const text = line.endsWith('\n') ? line.slice(0, -1) : line;
    if (!DROPPED.some((re) => re.test(text))) out += line;
  }
  return out;
}

/** Wraps a stream's write so that the dropped lines never reach it. */
function filter(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream);
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    if (typeof chunk !== 'string') return write(chunk, ...(rest as []));
    const kept = quiet(chunk);
    if (kept === '') {
      const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    }
    return write(kept, ...(rest as []));
  }) as typeof stream.write;
}

// The pool prints workerd's log lines on stdout or stderr by their level: both are filtered. The filter stays until
// the process ends (no teardown): vitest closes the runner's WebSocket after the global teardowns have run.
export default function setup(): void {
  filter(process.stdout);
  filter(process.stderr);
}
