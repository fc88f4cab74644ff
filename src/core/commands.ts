/**
 * The one command wrapper. Every Desk command runs through it: an error becomes one clear notification (with
 * Retry where the same request can simply be sent again, so nothing the user typed is lost) and a cancelled
 * operation says nothing. Commands resolve to what they created or changed, or undefined, so tests and other
 * commands can chain on them.
 */
import type * as vscode from 'vscode';
import type { CommandId } from '../config/commandIds';
import { hasMark } from '../shared/crossBundle';
import { retryOfFailed } from './bulk';
import type { DeskContext } from './deskContext';
import { accountOfRow } from './accounts/rowAccount';

/** `error instanceof CancelledError` (api/errors.ts) without loading the API layer, and zod, at activation. */
const isCancelled = (error: unknown): boolean => hasMark(error, 'CancelledError');

type ErrorReporter = Pick<DeskContext, 'showError'>;

export interface AttemptOptions<T> {
  /** What failed, as the notification's first sentence ("Could not rename the list"). */
  action?: string;
  /** Offer Retry: the work is run again as it is (only for work that asks the user nothing). */
  retry?: boolean;
  /** Runs after the first success, or after a retry that succeeds (refresh, forget a draft). */
  onSuccess?: (result: T) => unknown;
}

/** Runs `work`; a failure is shown (with Retry when asked) and resolves to undefined instead of rejecting. */
export async function attempt<T>(desk: ErrorReporter, work: () => Promise<T>, options: AttemptOptions<T> = {}): Promise<T | undefined> {
  let result: T;
  try {
    result = await work();
  } catch (error) {
    if (isCancelled(error)) return undefined;
    // Some items of a bulk command failed: Retry repeats those only, never the ones that succeeded.
    const failedOnly = retryOfFailed(error);
    const action = options.action ? { action: options.action } : {};
    const retry = failedOnly
      ? async (): Promise<void> => { await attempt(desk, failedOnly, action); }
      : options.retry ? async (): Promise<void> => { await attempt(desk, work, options); } : undefined;
    void desk.showError(error, { ...(options.action ? { action: options.action } : {}), ...(retry ? { retry } : {}) });
    return undefined;
  }
  await options.onSuccess?.(result);
  return result;
}

/** A command's body: gets the arguments VS Code passes (a tree node, the selection, a URI…). */
export type CommandHandler = (...args: never[]) => unknown;

/** How commands of a table are registered. */
export interface RegisterOptions {
  /**
   * Commands that act in one account but may be run without a row (Command Palette, a view's title button): with
   * several accounts signed in they ask which account first, and closing the question runs nothing.
   */
  readonly askAccount?: readonly string[];
  /**
   * Commands that act on the view's selection or the active document when run without a row: they run in that
   * account when it is clear, and ask nothing otherwise.
   */
  readonly followAccount?: readonly string[];
  /**
   * The account that is clear without asking for the `askAccount` and `followAccount` commands run without a row
   * (several accounts signed in): e.g. the account of the view's selected row. Default: the account of the active
   * editor's Desk document.
   */
  readonly clearAccount?: () => string | undefined;
}

type CommandSession = Pick<DeskContext['session'], 'runAs' | 'chooseAccount' | 'accounts' | 'operationAccount'>;

/** The account of the active editor's Desk document (`desk-drive://alice@example.com/…`), if it names one. */
export function editorAccount(vs: typeof vscode): string | undefined {
  const uri = vs.window.activeTextEditor?.document.uri;
  if (!uri || !uri.scheme.startsWith('desk') || !uri.authority.includes('@')) return undefined;
  return uri.authority.trim().toLowerCase();
}

/**
 * Registers a table of command id (config/commandIds.ts) → handler, each behind `attempt`. A command run on a row of
 * another account's tree (several accounts signed in) runs as that account: its requests, the URIs it opens and the
 * tree it refreshes are that account's.
 */
export function registerCommands(
  desk: Pick<DeskContext, 'vs' | 'showError'> & { readonly session?: CommandSession },
  table: Readonly<Partial<Record<CommandId, CommandHandler>>>,
  options: RegisterOptions = {},
): vscode.Disposable[] {
  return Object.entries(table).map(([id, handler]) =>
    desk.vs.commands.registerCommand(id, (...args: unknown[]) => attempt(desk, async () => {
      // Async so that a handler's synchronous throw is a rejection too.
      const run = async (): Promise<unknown> => await (handler as (...values: unknown[]) => unknown)(...args);
      const session = desk.session;
      let account = accountOfRow(args[0]) ?? (Array.isArray(args[1]) ? accountOfRow(args[1][0]) : undefined);
      const asks = options.askAccount?.includes(id) === true;
      // No row, several accounts, no account's operation under way (a search hit opened as its account): the account
      // clear from the selection or the editor (if signed in), else the user says which.
      if (!account && session && args[0] === undefined && session.accounts.length > 1 && session.operationAccount === undefined && (asks || options.followAccount?.includes(id))) {
        const clear = (options.clearAccount ?? (() => editorAccount(desk.vs)))();
        if (clear && session.accounts.some((signedIn) => signedIn.email === clear)) account = clear;
        else if (asks) {
          account = await session.chooseAccount();
          if (!account) return undefined;
        }
      }
      return account && session ? session.runAs(account, run) : run();
    })),
  );
}
