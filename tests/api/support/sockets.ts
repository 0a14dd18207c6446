import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * What the kernel says a process listens on (Linux's /proc), rather than what it was asked to do:
 * the TCP sockets in LISTEN state that the process holds open, with their local address and port.
 */
export interface Listening {
  address: string;
  port: number;
}

/** `/proc/net/tcp{,6}` write addresses as 32-bit words in host (little-endian) byte order. */
function address(hex: string): string {
  const words = hex.match(/.{8}/g)!.map((word) => word.match(/../g)!.reverse().join(''));
  if (words.length === 1)
    return words[0]!
      .match(/../g)!
      .map((byte) => parseInt(byte, 16))
      .join('.');
  const groups = words.flatMap((word) => [word.slice(0, 4), word.slice(4)]);
  return new URL(`http://[${groups.join(':')}]/`).hostname.replace(/^\[|\]$/g, '');
}

export function listeningSockets(pid: number): Listening[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // closed meanwhile
    }
  }
  const found: Listening[] = [];
  for (const table of ['tcp', 'tcp6']) {
    const file = `/proc/${pid}/net/${table}`;
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const columns = line.trim().split(/\s+/);
      const [local, state, inode] = [columns[1], columns[3], columns[9]];
      if (!local || state !== '0A' || !inode || !inodes.has(inode)) continue;
      const [hex, port] = local.split(':');
      found.push({ address: address(hex!), port: parseInt(port!, 16) });
    }
  }
  return found;
}

/** The processes this one started whose command is `name`. */
export function childProcesses(name: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return command === name && parent === process.pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** This machine's addresses other than loopback (IPv4), where nothing embedded may be reached. */
export function outsideAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((i) => i && i.family === 'IPv4' && !i.internal)
    .map((i) => i!.address);
}

/** How a TCP connection to host:port ends: `connected`, or the error's code (ECONNREFUSED, …). */
export function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 5000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve('timeout');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}
