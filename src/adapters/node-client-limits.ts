import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** What one client may hold of the listener, so that it cannot shut the others out. */
export interface ClientLimits {
  /** Connections one client address may have open at once; further ones are refused as they arrive. */
  perClient: number;
  /** A new connection that has sent no byte in this long is closed (its first request never came). */
  firstRequestMs: number;
}

/** Why a connection is turned away: its client holds too many, or it sent nothing in time. */
export type TurnAway = 'too-many' | 'idle';

/**
 * The per-client cap the listener applies: the one asked for, or half the
 * global cap when that is not below it. A cap as large as the global one
 * would let a single client fill every slot, which is what it is for to
 * prevent; the note says when it was lowered.
 */
export function perClientCap(wanted: number, connections: number): { perClient: number; note?: string } {
  if (wanted < connections) return { perClient: wanted };
  const perClient = Math.max(1, Math.floor(connections / 2));
  return { perClient, note: `at most ${perClient} connections per client, not ${wanted}: it must stay below --max-connections (${connections})` };
}

/** The client a socket belongs to: its address, an IPv4 one the same whether it came over IPv4 or IPv6. */
export const clientOf = (socket: Pick<Socket, 'remoteAddress'>): string => {
  const address = socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
};

/**
 * Counts each client address's open connections and turns away those over
 * `perClient` as they arrive, before Node's HTTP parser is attached: a
 * refused connection can never deliver a request, whatever it sends. A
 * connection that sends nothing within `firstRequestMs` is turned away too,
 * so idle sockets do not sit on slots until the head deadline. Only sockets
 * that have read no byte count as idle: one whose request is under way is
 * left to the head and request deadlines. Call it once, right after
 * `createServer`, whose own `connection` listener it wraps.
 */
export function limitClients(server: Server, limits: ClientLimits, turnAway: (socket: Socket, why: TurnAway) => void): void {
  const [parse, ...others] = server.listeners('connection') as ((socket: Socket) => void)[];
  if (!parse || others.length > 0) throw new Error('limitClients needs a fresh HTTP server');
  server.removeListener('connection', parse);
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const client = clientOf(socket);
    const count = (open.get(client) ?? 0) + 1;
    if (count > limits.perClient) {
      turnAway(socket, 'too-many');
      return;
    }
    open.set(client, count);
    parse.call(server, socket);
    const timer = setTimeout(() => {
      if (socket.bytesRead === 0 && !socket.destroyed) turnAway(socket, 'idle');
    }, limits.firstRequestMs).unref();
    socket.once('close', () => {
      clearTimeout(timer);
      const left = (open.get(client) ?? 1) - 1;
      if (left > 0) open.set(client, left);
      else open.delete(client);
    });
  });
}
