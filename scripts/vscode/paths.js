// Where the test VS Code lives and where runs keep their files; shared by every script under scripts/vscode.
'use strict';

const path = require('node:path');

const CODE_SERVER_VERSION = '4.100.3';
const repoRoot = path.resolve(__dirname, '..', '..');

function codeServerRoot() {
  return path.join(repoRoot, '.vscode-test', 'code-server');
}

function codeServerPackageDir() {
  return path.join(codeServerRoot(), 'node_modules', 'code-server');
}

/** VS Code's own server entry inside code-server: we start it directly, without code-server's wrapper. */
function serverMainPath() {
  return path.join(codeServerPackageDir(), 'lib', 'vscode', 'out', 'server-main.js');
}

module.exports = { CODE_SERVER_VERSION, repoRoot, codeServerRoot, codeServerPackageDir, serverMainPath };
