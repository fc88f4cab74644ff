// Desk's own lint rules (build/eslint-rules) report what the house rules forbid, and nothing else: run by ESLint's
// RuleTester on small pieces of code (eslint.config.mjs decides which files each rule sees).
import * as path from 'node:path';
import type { Rule, RuleTester as RuleTesterType } from 'eslint';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const { RuleTester } = require(path.join(repoRoot, 'node_modules', 'eslint')) as { RuleTester: typeof RuleTesterType };
const { rules } = require(path.join(repoRoot, 'build', 'eslint-rules', 'index.js')) as { rules: Record<string, Rule.RuleModule> };
const rule = (name: string): Rule.RuleModule => rules[name];

const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });

describe('lint rules of the house', () => {
  tester.run('register-command-in-core', rule('register-command-in-core'), {
    valid: ['registerCommands(desk, { [TASKS_COMMAND.refresh]: refresh });', 'commands.executeCommand(TASKS_COMMAND.refresh);'],
    invalid: [
      { code: 'vs.commands.registerCommand(TASKS_COMMAND.refresh, refresh);', errors: [{ messageId: 'elsewhere' }] },
      { code: 'vs.commands.registerTextEditorCommand(id, run);', errors: [{ messageId: 'elsewhere' }] },
    ],
  });

  tester.run('ids-from-config', rule('ids-from-config'), {
    valid: [
      'vs.commands.executeCommand(TASKS_COMMAND.refresh);',
      'vs.workspace.getConfiguration().get(TASKS_SETTING.pageSize);',
      "vs.commands.executeCommand('setContext', 'desk:signedIn', true);",
      "vs.workspace.getConfiguration('files').get('exclude');",
      'vs.commands.executeCommand(`${CALENDAR_TREE_VIEW.id}.focus`);',
      "map.get('desk.tasks.refresh');",
    ],
    invalid: [
      { code: "vs.commands.executeCommand('desk.tasks.refresh');", errors: [{ messageId: 'literal' }] },
      { code: "vs.commands.registerCommand('desk.tasks.refresh', run);", errors: [{ messageId: 'literal' }] },
      { code: "vs.workspace.getConfiguration('desk.google');", errors: [{ messageId: 'literal' }] },
      { code: "vs.workspace.getConfiguration().update('desk.backend', 'google');", errors: [{ messageId: 'literal' }] },
      { code: 'event.affectsConfiguration(`desk.todo.keywords`);', errors: [{ messageId: 'literal' }] },
      { code: "registerCommands(desk, { 'desk.tasks.refresh': run, ['desk.tasks.addTask']: add });", errors: [{ messageId: 'literal' }, { messageId: 'literal' }] },
    ],
  });

  tester.run('bearer-token-in-server', rule('bearer-token-in-server'), {
    valid: ["reply({ token_type: 'Bearer' });", 'const user = context.user;', 'state.tokens.describeRefreshToken(token);'],
    invalid: [
      { code: 'const found = /^Bearer\\s+(\\S+)$/i.exec(header);', errors: [{ messageId: 'parse' }] },
      { code: "const found = new RegExp('^bearer (.*)$').exec(header);", errors: [{ messageId: 'parse' }] },
      { code: "if (header.startsWith('Bearer ')) token = header.slice(7);", errors: [{ messageId: 'parse' }] },
      { code: 'const grant = deps.tokens.describe(token);', errors: [{ messageId: 'lookup' }] },
    ],
  });
});
