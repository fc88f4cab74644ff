/** What the properties editor needs from the Drive client: a Pick of it, so tests fake only these calls. */
import type { DriveClient } from '../../../api/drive';

export type PropertiesApi = Pick<DriveClient, 'listProperties' | 'getProperty' | 'insertProperty' | 'updateProperty' | 'patchProperty' | 'deleteProperty'>;
