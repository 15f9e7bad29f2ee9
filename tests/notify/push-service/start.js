'use strict';
// Runs web-push-testing's push service on a free port of 127.0.0.1 (not on every interface,
// as its own CLI would) and prints "listening PORT" once it accepts requests. The service
// checks the VAPID JWT of every push against the subscription's applicationServerKey, decrypts
// the aes128gcm body with the subscription's keys and keeps the plaintext for
// POST /get-notifications. Stops on SIGTERM.
const { PushApiModel } = require('web-push-testing/src/PushApiModel.js');
const WebPushTestingServer = require('web-push-testing/src/server.js');

const model = new PushApiModel();
const service = new WebPushTestingServer(model, 0);
service.setRequestHandlers();
const listener = service._app.listen(0, '127.0.0.1', () => {
  const { port } = listener.address();
  model.notifyUrl = `http://127.0.0.1:${port}/notify/`;
  console.log(`listening ${port}`);
});
process.on('SIGTERM', () => listener.close(() => process.exit(0)));
