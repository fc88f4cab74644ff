/** The administrator's scope Directory watches need: asked for (with the user's consent) only when no session has it. */
import { DESK_SCOPES, SCOPES } from '../../config/scopes';
import type { DeskContext } from '../../core/deskContext';

export const DIRECTORY_SCOPES: readonly string[] = [...DESK_SCOPES, ...SCOPES.directory];

/** A session with the admin scope, asked for only when none has it; false when the user declines. */
export async function ensureDirectoryScope(desk: Pick<DeskContext, 'auth' | 'vs'>): Promise<boolean> {
  const sessions = await desk.auth.listSessions();
  if (sessions.some((session) => DIRECTORY_SCOPES.every((scope) => session.scopes.includes(scope)))) return true;
  const t = desk.vs.l10n.t;
  const grant = t('Grant Access');
  const answer = await desk.vs.window.showWarningMessage(
    t('Watching directory users needs permission to see and manage the users of your domain (an administrator\'s permission). Desk asks for it only now.'),
    { modal: true },
    grant,
  );
  if (answer !== grant) return false;
  await desk.auth.createSession([...DIRECTORY_SCOPES]);
  return true;
}
