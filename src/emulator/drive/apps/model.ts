/** The Drive apps the emulator lists as installed for every user (apps.list / apps.get): fixed demo data. */
import type { DriveApp } from '../../../shared/schemas/drive';

export const DEMO_APPS: readonly DriveApp[] = [
  {
    kind: 'drive#app',
    id: 'desk-notes',
    name: 'Desk Notes',
    objectType: 'note',
    shortDescription: 'Edit text and Markdown files in VS Code.',
    longDescription: 'Opens plain text and Markdown files from Drive in the Desk VS Code extension.',
    supportsCreate: true,
    supportsImport: true,
    supportsMultiOpen: true,
    supportsOfflineCreate: false,
    installed: true,
    authorized: true,
    useByDefault: true,
    hasDriveWideScope: true,
    productUrl: 'https://example.com/desk/notes',
    productId: 'desk-notes',
    openUrlTemplate: 'vscode://desk-dev.desk/drive/open?id={ids}',
    createUrl: 'vscode://desk-dev.desk/drive/new',
    createInFolderTemplate: 'vscode://desk-dev.desk/drive/new?folder={folderId}',
    primaryMimeTypes: ['text/plain', 'text/markdown'],
    secondaryMimeTypes: ['application/json'],
    primaryFileExtensions: ['txt', 'md'],
    secondaryFileExtensions: ['json'],
    icons: [{ category: 'application', iconUrl: 'https://example.com/desk/notes-32.png', size: 32 }],
  },
  {
    kind: 'drive#app',
    id: 'desk-tables',
    name: 'Desk Tables',
    objectType: 'table',
    shortDescription: 'View CSV files as tables.',
    longDescription: 'Shows CSV and TSV files and exported Sheets as tables.',
    supportsCreate: false,
    supportsImport: false,
    supportsMultiOpen: false,
    supportsOfflineCreate: false,
    installed: true,
    authorized: true,
    useByDefault: false,
    hasDriveWideScope: false,
    productUrl: 'https://example.com/desk/tables',
    productId: 'desk-tables',
    openUrlTemplate: 'vscode://desk-dev.desk/drive/table?id={ids}',
    primaryMimeTypes: ['text/csv'],
    secondaryMimeTypes: ['text/tab-separated-values', 'application/vnd.google-apps.spreadsheet'],
    primaryFileExtensions: ['csv'],
    secondaryFileExtensions: ['tsv'],
    icons: [{ category: 'application', iconUrl: 'https://example.com/desk/tables-32.png', size: 32 }],
  },
];

export function findApp(appId: string): DriveApp | undefined {
  return DEMO_APPS.find((candidate) => candidate.id === appId);
}
