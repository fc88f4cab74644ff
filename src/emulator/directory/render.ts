/** Directory users as the Admin SDK answers them: the administrator's view, or the domain-public view for everyone else. */
import { DEMO_CUSTOMER_ID, StoredDirectoryUser, userEtag } from './model';

export type ViewType = 'admin_view' | 'domain_public';

export function renderUser(user: StoredDirectoryUser, view: ViewType): Record<string, unknown> {
  const name = { givenName: user.givenName, familyName: user.familyName, fullName: `${user.givenName} ${user.familyName}` };
  const emails = [{ address: user.primaryEmail, primary: true }, ...user.aliases.map((alias) => ({ address: alias }))];
  if (view === 'domain_public') {
    return { kind: 'admin#directory#user', id: user.id, etag: userEtag(user), primaryEmail: user.primaryEmail, name, emails };
  }
  return {
    kind: 'admin#directory#user',
    id: user.id,
    etag: userEtag(user),
    primaryEmail: user.primaryEmail,
    name,
    isAdmin: user.isAdmin,
    isDelegatedAdmin: false,
    lastLoginTime: new Date(user.lastLoginTime ?? 0).toISOString(),
    creationTime: new Date(user.creationTime).toISOString(),
    agreedToTerms: true,
    suspended: user.suspended,
    ...(user.suspensionReason !== undefined ? { suspensionReason: user.suspensionReason } : {}),
    archived: user.archived,
    changePasswordAtNextLogin: user.changePasswordAtNextLogin,
    ipWhitelisted: user.ipWhitelisted,
    emails,
    ...(user.aliases.length > 0 ? { aliases: [...user.aliases] } : {}),
    ...(user.recoveryEmail !== undefined ? { recoveryEmail: user.recoveryEmail } : {}),
    customerId: DEMO_CUSTOMER_ID,
    orgUnitPath: user.orgUnitPath,
    isMailboxSetup: true,
    isEnrolledIn2Sv: false,
    isEnforcedIn2Sv: false,
    includeInGlobalAddressList: user.includeInGlobalAddressList,
    ...(user.deletionTime !== undefined ? { deletionTime: new Date(user.deletionTime).toISOString() } : {}),
  };
}

/** A page of users.list. */
export function renderUsers(page: { readonly users: readonly StoredDirectoryUser[]; readonly nextPageToken?: string | undefined }, view: ViewType): Record<string, unknown> {
  return {
    kind: 'admin#directory#users',
    etag: `"users-${page.users.map((entry) => `${entry.id}.${entry.version}`).join(',').length}-${page.users.length}"`,
    users: page.users.map((entry) => renderUser(entry, view)),
    ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
  };
}
