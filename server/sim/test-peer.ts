/**
 * A minimal JT/T 808 platform for the simulator's tests, built from the codec only (it does not
 * depend on the real gateway): answers 0x0100 with 0x8100 and an auth code, checks 0x0102, acks
 * everything else with 0x8001, and records what each terminal sent.
 */
import net from 'node:net';
import { decodeFrame, encodeReply, FrameSplitter, MSG, type Jt808Header, type Jt808Message } from '../gateway/jt808/index.ts';

export interface ReceivedMessage {
  readonly header: Jt808Header;
  readonly message: Jt808Message;
  /** Whether the connection had authenticated when this arrived. */
  readonly authenticated: boolean;
}

export interface TestPeer {
  readonly port: number;
  /** Messages per terminal (header phone, leading zeros dropped), in arrival order. */
  readonly received: Map<string, ReceivedMessage[]>;
  readonly badFrames: number;
  /** Open connections. */
  connections(): number;
  /** Closes every open connection (the terminals should reconnect). */
  dropAll(): void;
  close(): Promise<void>;
}

export interface TestPeerOptions {
  /** Terminals refused at register (result 4, no such terminal), by header phone. */
  readonly refuse?: (phone: string) => boolean;
}

export async function startTestPeer(options: TestPeerOptions = {}): Promise<TestPeer> {
  const received = new Map<string, ReceivedMessage[]>();
  const sockets = new Set<net.Socket>();
  let badFrames = 0;
  let serial = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const splitter = new FrameSplitter();
    let authenticated = false;
    socket.on('data', (chunk: Buffer) =>
      splitter.push(chunk, (frame) => {
        const r = decodeFrame(frame);
        if (r.kind !== 'message') {
          badFrames++;
          return;
        }
        const { header, message } = r;
        let list = received.get(header.phone);
        if (!list) received.set(header.phone, (list = []));
        list.push({ header, message, authenticated });
        const next = () => (serial = (serial + 1) & 0xffff);
        if (message.msgId === MSG.REGISTER) {
          if (options.refuse?.(header.phone)) {
            socket.write(encodeReply(header, next(), { msgId: MSG.REGISTER_RESPONSE, replySerial: header.serial, result: 4, authCode: '' }));
            return;
          }
          socket.write(encodeReply(header, next(), { msgId: MSG.REGISTER_RESPONSE, replySerial: header.serial, result: 0, authCode: `AC${header.phone}` }));
          return;
        }
        let result = 0;
        if (message.msgId === MSG.AUTHENTICATE) {
          authenticated = message.authCode === `AC${header.phone}`;
          result = authenticated ? 0 : 1;
        } else if (!authenticated) {
          result = 1;
        }
        socket.write(encodeReply(header, next(), { msgId: MSG.PLATFORM_RESPONSE, replySerial: header.serial, replyId: header.msgId, result }));
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('test peer has no port');
  return {
    port: address.port,
    received,
    get badFrames() {
      return badFrames;
    },
    connections: () => sockets.size,
    dropAll() {
      for (const s of sockets) s.destroy();
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
