// Desk's own lint rules, for the house rules review used to enforce (docs/architecture.md, "Lint"). Loaded by
// eslint.config.mjs as the plugin `desk`, the way microsoft/vscode-pull-request-github keeps build/eslint-rules.
'use strict';

exports.rules = {
  'register-command-in-core': require('./register-command-in-core'),
  'ids-from-config': require('./ids-from-config'),
  'bearer-token-in-server': require('./bearer-token-in-server'),
};
