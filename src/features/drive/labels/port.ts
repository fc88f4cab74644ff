/** What applying and editing labels needs from the Drive client: a Pick of it, so tests fake only these calls. */
import type { DriveClient } from '../../../api/drive';

export type LabelsApi = Pick<DriveClient, 'listLabels' | 'modifyLabels' | 'getFile'>;
