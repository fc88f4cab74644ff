/**
 * The translator of the modules that do not import vscode: the extension hands them `vscode.l10n.t`, which looks the
 * message up in the l10n bundle of the display language (scripts/l10n/export.js collects every `t('…')` call).
 */
export type Translate = (message: string, ...args: Array<string | number | boolean>) => string;

/**
 * English as written, with `{0}`… filled in as `vscode.l10n.t` does when no translation exists: the default of pure
 * modules, so their tests and the emulator-free callers need no translator.
 */
export const english: Translate = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (placeholder, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : placeholder));
