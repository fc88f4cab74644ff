// The emulator's server reads the bearer token once and puts the user and the grant on RequestContext
// (emulator/core/server.ts); no route parses the Authorization header or looks the access token up itself (issue 30:
// it was parsed in five places). The config names the files allowed: the server, the OAuth server (which issues and
// revokes tokens) and the log (which redacts them).
'use strict';

const BEARER = /bearer/i;
const STRING_METHODS = new Set(['startsWith', 'split', 'replace', 'replaceAll', 'slice', 'indexOf', 'includes', 'match', 'exec', 'test']);

/** @type {import('eslint').Rule.RuleModule} */
module.exports = {
  meta: {
    type: 'problem',
    docs: { description: 'Only the emulator\'s server parses the bearer token.' },
    schema: [],
    messages: {
      parse: 'Read context.user and context.grant: the server parses the bearer token (emulator/core/server.ts).',
      lookup: 'Read context.grant: the server looks the token up (emulator/core/server.ts).',
    },
  },
  create(context) {
    return {
      Literal(node) {
        if (node.regex && BEARER.test(node.regex.pattern)) context.report({ node, messageId: 'parse' });
      },
      CallExpression(node) {
        const callee = node.callee;
        const first = node.arguments[0];
        const firstText = first && first.type === 'Literal' && typeof first.value === 'string' ? first.value : undefined;
        // new RegExp('Bearer …') or RegExp('Bearer …')
        if (callee.type === 'Identifier' && callee.name === 'RegExp' && firstText !== undefined && BEARER.test(firstText)) context.report({ node, messageId: 'parse' });
        if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return;
        // header.startsWith('Bearer '), header.split('Bearer ')…
        if (STRING_METHODS.has(callee.property.name) && firstText !== undefined && /^\s*bearer\b/i.test(firstText)) context.report({ node, messageId: 'parse' });
        // tokens.describe(accessToken): the access token's lookup
        if (callee.property.name === 'describe' && callee.object.type === 'MemberExpression' && !callee.object.computed && callee.object.property.type === 'Identifier' && callee.object.property.name === 'tokens') {
          context.report({ node, messageId: 'lookup' });
        }
      },
      NewExpression(node) {
        const first = node.arguments[0];
        if (node.callee.type === 'Identifier' && node.callee.name === 'RegExp' && first && first.type === 'Literal' && typeof first.value === 'string' && BEARER.test(first.value)) context.report({ node, messageId: 'parse' });
      },
    };
  },
};
