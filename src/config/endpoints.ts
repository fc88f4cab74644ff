/**
 * Where each service lives. Google's hosts by default; every service at one root when the emulator is
 * used (its path prefixes do not overlap). Views and commands never build URLs: only the clients do,
 * from these roots. No vscode import, so it is unit-testable.
 */
export type BackendKind = 'google' | 'emulator';

export interface OAuthEndpoints {
  readonly authorization: string;
  readonly token: string;
  readonly revocation: string;
  readonly userinfo: string;
}

export interface ServiceEndpoints {
  readonly kind: BackendKind;
  /** Root for `/tasks/v1/...`. */
  readonly tasks: string;
  /** Root for `/books/v1/...`. */
  readonly books: string;
  /** Root for `/drive/v2/...` and `/upload/drive/v2/...`. */
  readonly drive: string;
  /** Root for `/calendar/v3/...`. */
  readonly calendar: string;
  /** Root for `/admin/directory/v1/...`. */
  readonly directory: string;
  readonly oauth: OAuthEndpoints;
  /** A browser address for a Drive file (native documents open there). */
  readonly driveWebUrl: (fileId: string) => string;
}

export const GOOGLE_ENDPOINTS: ServiceEndpoints = {
  kind: 'google',
  tasks: 'https://tasks.googleapis.com',
  books: 'https://www.googleapis.com',
  drive: 'https://www.googleapis.com',
  calendar: 'https://www.googleapis.com',
  directory: 'https://admin.googleapis.com',
  oauth: {
    authorization: 'https://accounts.google.com/o/oauth2/v2/auth',
    token: 'https://oauth2.googleapis.com/token',
    revocation: 'https://oauth2.googleapis.com/revoke',
    userinfo: 'https://openidconnect.googleapis.com/v1/userinfo',
  },
  driveWebUrl: (fileId) => `https://drive.google.com/open?id=${encodeURIComponent(fileId)}`,
};

/** Root for the Drive Labels API's `/v2/labels` (label definitions): its own host on Google, the one root on the emulator. */
export function driveLabelsRoot(endpoints: ServiceEndpoints): string {
  return endpoints.kind === 'google' ? 'https://drivelabels.googleapis.com' : endpoints.drive;
}

/** The emulator serves Google's paths on one root, OAuth included (same paths as Google's hosts use). */
export function emulatorEndpoints(rootUrl: string): ServiceEndpoints {
  const root = rootUrl.replace(/\/+$/, '');
  return {
    kind: 'emulator',
    tasks: root,
    books: root,
    drive: root,
    calendar: root,
    directory: root,
    oauth: {
      authorization: `${root}/o/oauth2/v2/auth`,
      token: `${root}/token`,
      revocation: `${root}/revoke`,
      userinfo: `${root}/v1/userinfo`,
    },
    driveWebUrl: (fileId) => `${root}/emulator/v1/drive/open/${encodeURIComponent(fileId)}`,
  };
}


/** The client id the extension uses against the emulator (the emulator accepts any installed-app client). */
export const EMULATOR_CLIENT_ID = 'desk-vscode.apps.emulator';
