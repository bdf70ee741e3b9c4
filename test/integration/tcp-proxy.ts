import net from 'node:net';

/**
 * A TCP proxy on loopback in front of a real server, which can fall silent: from `silence()` on, every byte either
 * way is dropped and nothing is closed or reset, as a network partition or a frozen host behaves. A connection opened
 * while silent is accepted and then hears nothing either. Unlike a stopped server (a refused connect, a reset socket),
 * nothing tells the client that anything is wrong: only its own timeouts end the wait.
 */
export interface SilenceableProxy {
  /** The loopback port clients connect to instead of the server's. */
  port: number;
  silence(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startSilenceableProxy(target: { host: string; port: number }): Promise<SilenceableProxy> {
  let silent = false;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // A peer's error is the end of that pair, not of the test.
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    track(client);
    track(upstream);
    const forward = (from: net.Socket, to: net.Socket) => {
      from.on('data', (chunk) => {
        if (!silent) to.write(chunk);
      });
      from.once('close', () => to.destroy());
    };
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    silence: () => {
      silent = true;
    },
    resume: () => {
      silent = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
