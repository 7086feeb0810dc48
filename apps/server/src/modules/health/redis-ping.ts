import { connect } from 'node:net';

/**
 * One `PING` over RESP (with `AUTH` when the URL carries a password): enough to tell
 * whether Redis answers, without a client library for a check this small.
 */
export function pingRedis(url: string, timeoutMs: number): Promise<boolean> {
  const { hostname, port, username, password } = new URL(url);
  const auth = password ? `AUTH ${username ? `${decodeURIComponent(username)} ` : ''}${decodeURIComponent(password)}\r\n` : '';
  return new Promise((resolve) => {
    const socket = connect({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
    let answer = '';
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write(`${auth}PING\r\n`));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
      if (answer.startsWith('-')) finish(false);
      else if (answer.includes('+PONG')) finish(true);
    });
  });
}
