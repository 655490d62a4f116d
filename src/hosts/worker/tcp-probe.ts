// The Worker's TCP probe for io/fetch-errors.ts: workerd's fetch() says "internal error" both for a name that
// does not resolve and for a failed TLS handshake; one plain TCP connection tells them apart.

import { connect } from 'cloudflare:sockets';
import type { TcpProbe } from '../../io/fetch-errors.js';

/** How long the probe may take at most (it also stops at the fetch's own deadline). */
const PROBE_TIMEOUT_MS = 2_000;

export const tcpOpens: TcpProbe = async (url, deadline) => {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
  });
  try {
    const socket = connect({ hostname: url.hostname.replace(/^\[|\]$/g, ''), port }, { secureTransport: 'off', allowHalfOpen: false });
    const opened = socket.opened.then(
      () => true,
      () => false,
    );
    const result = await Promise.race([opened, timeout, deadline.catch(() => false)]);
    socket.close().catch(() => undefined);
    return result;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
};
