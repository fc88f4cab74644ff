// What the demo keeps in .desk-data/ between runs so a re-run stays signed in: the emulator's port (Desk keys its
// session by the emulator's URL) and the key half the page's secrets are sealed with (code-server keeps one too).
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');

const KEY_HALF_BYTES = 32;

/** The port saved by the last run, or undefined (no file, or not a port). */
function readRememberedPort(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
  const port = Number(text);
  return /^\d+$/.test(text) && port >= 1 && port <= 65535 ? port : undefined;
}

function rememberPort(file, port) {
  fs.writeFileSync(file, `${port}\n`);
}

/** Whether nothing listens on host:port now (the emulator binds it right after, so a race is unlikely and reported). */
function isPortFree(port, host) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/**
 * The emulator's port for this run: the one asked for (--emulator-port), else the last run's when it is free,
 * else 0 (any free port, remembered for the next run).
 */
async function chooseEmulatorPort({ requested, file, host }) {
  if (requested) return requested;
  const remembered = readRememberedPort(file);
  if (remembered !== undefined && (await isPortFree(remembered, host))) return remembered;
  return 0;
}

/** The key half kept in `file` (created on first use, readable by the owner only). */
function loadKeyHalf(file) {
  try {
    const saved = fs.readFileSync(file);
    if (saved.length === KEY_HALF_BYTES) return saved;
  } catch {
    // first run
  }
  const keyHalf = crypto.randomBytes(KEY_HALF_BYTES);
  fs.writeFileSync(file, keyHalf, { mode: 0o600 });
  return keyHalf;
}

module.exports = { readRememberedPort, rememberPort, isPortFree, chooseEmulatorPort, loadKeyHalf };
