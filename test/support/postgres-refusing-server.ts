/**
 * A stand-in PostgreSQL server on loopback for what the shared test server (trust
 * authentication) cannot show: `refuse-password` speaks the real wire protocol far enough to ask
 * for a password and answer it as a server does a wrong one (SQLSTATE 28P01); `silent` accepts
 * connections and never says anything (a host that swallows packets, reached through a proxy).
 */
import { createServer, type Socket } from 'node:net';

export interface RefusingServer {
  port: number;
  close(): Promise<void>;
}

/** A backend message: its type byte, its length (self included), its body. */
function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/** ErrorResponse: (field code, text NUL)… NUL. */
function errorResponse(fields: Record<string, string>): Buffer {
  const parts = Object.entries(fields).map(([code, text]) => Buffer.from(`${code}${text}\0`, 'utf8'));
  return message('E', Buffer.concat([...parts, Buffer.from([0])]));
}

export async function startRefusingServer(mode: 'refuse-password' | 'silent'): Promise<RefusingServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (mode === 'silent') return;
    let startup = true;
    socket.on('data', () => {
      if (startup) {
        // The startup packet: answered with AuthenticationCleartextPassword (R, 3).
        startup = false;
        const body = Buffer.alloc(4);
        body.writeInt32BE(3);
        socket.write(message('R', body));
        return;
      }
      // The password message, whatever it says: refused, as PostgreSQL refuses a wrong one.
      socket.end(
        errorResponse({
          S: 'FATAL',
          V: 'FATAL',
          C: '28P01',
          M: 'password authentication failed for user "tandem"',
        }),
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the refusing server has no port');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((ok) => {
        for (const s of sockets) s.destroy();
        server.close(() => ok());
      }),
  };
}
