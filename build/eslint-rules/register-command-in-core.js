// `registerCommand` is called in one file, core/commands.ts, whose wrapper reports failures with Retry; everything
// else registers through `registerCommands`. The config names the files allowed (the rule is off there).
'use strict';

const REGISTERING = new Set(['registerCommand', 'registerTextEditorCommand']);

/** @type {import('eslint').Rule.RuleModule} */
module.exports = {
  meta: {
    type: 'problem',
    docs: { description: 'Register commands only through core/commands.ts (registerCommands).' },
    schema: [],
    messages: { elsewhere: 'Register commands through registerCommands (core/commands.ts): it is the one place that calls {{name}}.' },
  },
  create(context) {
    return {
      'CallExpression > MemberExpression.callee'(node) {
        const name = node.property.type === 'Identifier' ? node.property.name : node.property.type === 'Literal' ? node.property.value : undefined;
        if (typeof name === 'string' && REGISTERING.has(name)) context.report({ node, messageId: 'elsewhere', data: { name } });
      },
    };
  },
};
