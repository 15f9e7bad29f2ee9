// A minimal SMTP server on loopback for the tests: accepts every message (no TLS, no AUTH) and
// keeps it, so a test can read the mail the game server sent through its relay settings
// (--smtp-url smtp://127.0.0.1:PORT --smtp-starttls off).

import net from 'node:net';

// Quoted-printable (RFC 2045) to text.
export function decodeQuotedPrintable(text) {
  const bytes = [];
  const soft = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

export async function startSmtpSink() {
  const messages = [];
  const waiters = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let envelope = { from: '', to: [] };
    socket.write('220 sink.test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          const raw = buffer.slice(0, end).replace(/\r\n\.\./g, '\r\n.');
          buffer = buffer.slice(end + 5);
          inData = false;
          const split = raw.indexOf('\r\n\r\n');
          const message = { ...envelope, headers: raw.slice(0, split), body: decodeQuotedPrintable(raw.slice(split + 4)) };
          messages.push(message);
          for (const w of waiters.splice(0)) w();
          envelope = { from: '', to: [] };
          socket.write('250 queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-sink.test\r\n250 8BITMIME\r\n');
        else if (verb === 'MAIL') {
          envelope.from = line;
          socket.write('250 ok\r\n');
        } else if (verb === 'RCPT') {
          envelope.to.push(line);
          socket.write('250 ok\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
          return;
        } else socket.write('250 ok\r\n');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    messages,
    // Resolves with the first message (from `from` on) that `predicate` accepts.
    async waitFor(predicate, timeout = 15000) {
      const deadline = Date.now() + timeout;
      for (;;) {
        const found = messages.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no such mail within ${timeout} ms (got ${messages.length})`);
        await new Promise((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 500);
        });
      }
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// A free TCP port on loopback (for a server that must know its own URL before it starts).
export async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
