/**
 * The label definitions a user may apply (Drive Labels API), for the label commands. Reading them needs the Drive
 * Labels scope, which Desk asks for (with the user's consent) only the first time a label is applied or edited;
 * the definitions are then kept for a few minutes per backend.
 */
import { DriveLabelDefinitionsClient } from '../../../api/drive';
import { CancelledError } from '../../../api/errors';
import { driveLabelsRoot } from '../../../config/endpoints';
import { DESK_SCOPES, SCOPES } from '../../../config/scopes';
import type { DeskContext } from '../../../core/deskContext';
import type { LabelDefinition } from '../../../shared/schemas/drive/labels';

export const LABEL_SCOPES: readonly string[] = [...DESK_SCOPES, ...SCOPES.driveLabels];
const KEEP_MS = 5 * 60_000;

export class LabelCatalog {
  private client: DriveLabelDefinitionsClient | undefined;
  private cached: { key: string; at: number; definitions: Promise<LabelDefinition[]> } | undefined;

  constructor(private readonly desk: Pick<DeskContext, 'vs' | 'auth' | 'backend' | 'httpClient'>) {}

  /** Every published definition; asks for the labels permission first when no session has it (CancelledError when refused). */
  async definitions(): Promise<LabelDefinition[]> {
    await this.ensureScope();
    const endpoints = this.desk.backend.current;
    const key = endpoints ? `${endpoints.kind}|${endpoints.drive}` : '';
    if (!this.cached || this.cached.key !== key || Date.now() - this.cached.at > KEEP_MS) {
      this.client ??= new DriveLabelDefinitionsClient(this.desk.httpClient(driveLabelsRoot, LABEL_SCOPES));
      const definitions = this.client.listDefinitions();
      const entry = { key, at: Date.now(), definitions };
      this.cached = entry;
      definitions.catch(() => {
        if (this.cached === entry) this.cached = undefined;
      });
    }
    return this.cached.definitions;
  }

  /** The definitions if they were already read (no consent asked): for showing applied labels by name. */
  async known(): Promise<LabelDefinition[]> {
    if (!(await this.hasScope())) return [];
    return this.definitions().catch(() => []);
  }

  private async hasScope(): Promise<boolean> {
    const sessions = await this.desk.auth.listSessions();
    return sessions.some((session) => LABEL_SCOPES.every((scope) => session.scopes.includes(scope)));
  }

  private async ensureScope(): Promise<void> {
    if (await this.hasScope()) return;
    const t = this.desk.vs.l10n.t;
    const grant = t('Grant Access');
    const answer = await this.desk.vs.window.showWarningMessage(
      t('Applying and editing Drive labels needs permission to read your organization\'s label definitions. Desk asks for it only now.'),
      { modal: true },
      grant,
    );
    if (answer !== grant) throw new CancelledError();
    await this.desk.auth.createSession([...LABEL_SCOPES]);
  }
}
