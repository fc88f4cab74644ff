// Command ids and setting keys are named only through the constants of src/config/ (commandIds.ts, settingKeys.ts,
// treeViews.ts): a `desk.…` string literal given to the APIs that take them is reported. The config turns the rule
// off in src/config/.
'use strict';

/** Calls whose first argument is a command id or a setting key. */
const TAKES_ID = new Set(['registerCommand', 'registerTextEditorCommand', 'executeCommand', 'getConfiguration', 'affectsConfiguration']);
/** Methods of a WorkspaceConfiguration (the result of getConfiguration()) whose first argument is a setting key. */
const CONFIGURATION_METHODS = new Set(['get', 'update', 'inspect', 'has']);
/** Desk's wrapper, whose argument maps command ids to handlers. */
const WRAPPERS = new Set(['registerCommands']);

function calleeName(callee) {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier') return callee.property.name;
  return undefined;
}

/** The text of a string literal or a template literal without expressions; undefined for anything else. */
function staticText(node) {
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return undefined;
}

const isDeskId = (text) => typeof text === 'string' && /^desk\./.test(text);

/** @type {import('eslint').Rule.RuleModule} */
module.exports = {
  meta: {
    type: 'problem',
    docs: { description: 'Command ids and setting keys come from src/config/, never a literal.' },
    schema: [],
    messages: { literal: '"{{text}}" is a Desk id: name it with its constant in src/config/ (commandIds.ts, settingKeys.ts, treeViews.ts).' },
  },
  create(context) {
    const report = (node, text) => context.report({ node, messageId: 'literal', data: { text } });
    return {
      CallExpression(node) {
        const name = calleeName(node.callee);
        if (name === undefined) return;
        const first = node.arguments[0];
        const text = staticText(first);
        if (TAKES_ID.has(name) && isDeskId(text)) report(first, text);
        // config.get('desk.x') on the result of getConfiguration(…)
        if (CONFIGURATION_METHODS.has(name) && isDeskId(text) && node.callee.type === 'MemberExpression') {
          const target = node.callee.object;
          if (target.type === 'CallExpression' && calleeName(target.callee) === 'getConfiguration') report(first, text);
        }
        if (WRAPPERS.has(name)) {
          for (const argument of node.arguments) {
            if (argument.type !== 'ObjectExpression') continue;
            for (const property of argument.properties) {
              const key = property.type === 'Property' ? (property.computed ? staticText(property.key) : property.key.type === 'Literal' ? staticText(property.key) : undefined) : undefined;
              if (isDeskId(key)) report(property.key, key);
            }
          }
        }
      },
    };
  },
};
