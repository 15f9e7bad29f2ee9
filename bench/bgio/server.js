// boardgame.io's own server for the yardstick game: socket.io transport, in-memory storage,
// the lobby API on a port of its own. Usage: PORT=8000 API_PORT=8002 node server.js
// (0 or unset: a free port). It prints "listening GAME_PORT API_PORT" once both accept
// connections.
const net = require('net');
const { Server } = require('boardgame.io/server');
const { ToyViktory } = require('./game');

// boardgame.io treats an API port of 0 as "no separate API": ask the system for a free one.
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

(async () => {
  const port = Number(process.env.PORT || 0);
  const apiPort = Number(process.env.API_PORT || 0) || (await freePort());
  const server = Server({ games: [ToyViktory], origins: ['http://127.0.0.1'] });
  const { appServer, apiServer } = await server.run({ port, lobbyConfig: { apiPort } });
  console.log(`listening ${appServer.address().port} ${apiServer.address().port}`);
})();
