/** The OAuth sign-in pages: the consent page (account chooser and scopes), error pages, and the page frame with its headers. */
import { escapeHtml } from '../core/html';
import type { Reply } from '../core/router';
import { DEMO_USERS, findUser } from '../identity/users';

/** What the consent page says each scope lets the app do. */
const SCOPE_DESCRIPTIONS: Record<string, string> = {
  openid: 'Associate you with your personal info',
  email: 'See your primary email address',
  profile: 'See your personal info, including any personal info you made publicly available',
  'https://www.googleapis.com/auth/tasks': 'Create, edit, organize and delete all your tasks',
  'https://www.googleapis.com/auth/books': 'Manage your books',
  'https://www.googleapis.com/auth/drive': 'See, edit, create and delete all of your Google Drive files',
  'https://www.googleapis.com/auth/drive.apps.readonly': 'View your Google Drive apps',
  'https://www.googleapis.com/auth/calendar': 'See, edit, share and permanently delete all the calendars you can access',
  'https://www.googleapis.com/auth/admin.directory.user': 'View and manage the provisioning of users on your domain',
};

/** What the consent page shows of an authorization request. */
export interface ConsentRequest {
  readonly clientId: string;
  readonly scopes: readonly string[];
  readonly accessType: 'online' | 'offline';
  readonly loginHint?: string;
}

/** The account chooser and the scopes asked for; the form posts to `approvalPath`, relative to the page. */
export function consentBody(requestId: string, request: ConsentRequest, approvalPath: string): string {
  const hinted = request.loginHint ? findUser(request.loginHint) : undefined;
  const accounts = hinted ? [hinted, ...DEMO_USERS.filter((user) => user.id !== hinted.id)] : [...DEMO_USERS];
  const accountButtons = accounts
    .map((user) => {
      const focus = user === hinted ? ' autofocus class="account hinted"' : ' class="account"';
      return `<li><button type="submit" name="account" value="${escapeHtml(user.email)}"${focus}><strong>${escapeHtml(user.name)}</strong><span>${escapeHtml(user.email)}</span></button></li>`;
    })
    .join('\n');
  const scopeItems = request.scopes
    .map((scope) => `<li>${escapeHtml(SCOPE_DESCRIPTIONS[scope] ?? scope)}<br><code>${escapeHtml(scope)}</code></li>`)
    .join('\n');
  const offline = request.accessType === 'offline' ? '<p class="note">The app keeps this access when you are not using it (offline access).</p>' : '';
  return `<main>
<h1>Choose an account</h1>
<p>to continue to <strong>${escapeHtml(request.clientId)}</strong></p>
<form method="post" action="${escapeHtml(approvalPath)}">
<input type="hidden" name="request" value="${escapeHtml(requestId)}">
<ul class="accounts">
${accountButtons}
</ul>
<h2>This app wants to</h2>
<ul class="scopes">
${scopeItems}
</ul>
${offline}
<button type="submit" name="action" value="cancel" class="cancel">Cancel</button>
</form>
<p class="note">Desk emulator: demo accounts only. Nothing leaves this machine.</p>
</main>`;
}

export function errorPage(status: number, error: string, description: string): Reply {
  return htmlPage(status, `Error ${status}: ${error}`, `<main>
<h1>Access blocked: authorization error</h1>
<p>${escapeHtml(description)}</p>
<p class="error">Error ${status}: ${escapeHtml(error)}</p>
</main>`);
}

/** A page of the emulator's sign-in flow, framed and cached as Google's sign-in pages are not: never. */
export function htmlPage(status: number, title: string, body: string): Reply {
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f1f3f4;color:#202124;margin:0;padding:2rem}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:8px;padding:2rem;box-shadow:0 1px 3px rgba(0,0,0,.2)}
h1{font-size:1.4rem;font-weight:500}h2{font-size:1rem;font-weight:500;margin-top:1.5rem}
ul{list-style:none;padding:0}.scopes li{margin:.5rem 0}.scopes code{font-size:.75rem;color:#5f6368}
.account{display:flex;flex-direction:column;align-items:flex-start;width:100%;padding:.75rem 1rem;margin:.25rem 0;border:1px solid #dadce0;border-radius:6px;background:#fff;cursor:pointer;font:inherit;text-align:left}
.account:hover,.account:focus{background:#e8f0fe}.account.hinted{border-color:#1a73e8}.account span{color:#5f6368;font-size:.85rem}
.cancel{padding:.5rem 1.25rem;border:1px solid #dadce0;border-radius:4px;background:#fff;font:inherit;cursor:pointer}
.note{color:#5f6368;font-size:.8rem}.error{color:#d93025;font-weight:500}
</style></head><body>
${body}
</body></html>`;
  return {
    status,
    headers: {
      'Cache-Control': 'no-store',
      'X-Frame-Options': 'DENY',
      // No form-action here: browsers apply it to the redirect after the form post, which goes to the app's loopback port.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'Referrer-Policy': 'no-referrer',
    },
    body: html,
    contentType: 'text/html; charset=utf-8',
  };
}
