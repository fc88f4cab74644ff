import fetch from 'node-fetch';

/**
 * A programmatic browser for the emulator's consent page, so tests run the real sign-in code path without a
 * window: it opens the authorization URL, picks an account (or presses Cancel), follows the redirect to the
 * app's loopback callback, and reports what happened. Pass `consentBrowser(email)` as the provider's `openUrl`.
 */
export interface ConsentResult {
  /** The redirect the consent page answered with (the app's loopback URL with code or error, and state). */
  readonly redirect: string;
  /** The loopback server's answer to the browser, when the redirect was followed. */
  readonly callbackStatus?: number;
  readonly callbackBody?: string;
}

export interface ConsentOptions {
  /** Stop after the consent page's redirect instead of delivering it to the loopback server. */
  readonly followRedirect?: boolean;
}

export class ConsentPageError extends Error {
  constructor(readonly status: number, readonly body: string) {
    super(`The authorization endpoint answered ${status}: ${textOf(body).slice(0, 300)}`);
    this.name = 'ConsentPageError';
  }
}

/** Runs the consent for `account` (an email of a demo user) or `'cancel'`. */
export async function completeConsent(authorizationUrl: string, account: string, options: ConsentOptions = {}): Promise<ConsentResult> {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  const pageBody = await page.text();
  // A silent request (prompt=none) redirects at once.
  let redirect = page.status === 302 ? page.headers.get('location') ?? undefined : undefined;
  if (!redirect) {
    if (page.status !== 200) throw new ConsentPageError(page.status, pageBody);
    const action = /<form[^>]*method="post"[^>]*action="([^"]+)"/i.exec(pageBody)?.[1];
    const requestId = /<input type="hidden" name="request" value="([^"]+)"/i.exec(pageBody)?.[1];
    if (!action || !requestId) throw new Error('The consent page has no account form');
    const form = new URLSearchParams({ request: unescapeHtml(requestId) });
    if (account === 'cancel') form.set('action', 'cancel');
    else form.set('account', account);
    const submitted = await fetch(new URL(unescapeHtml(action), authorizationUrl).toString(), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const submittedBody = await submitted.text();
    redirect = submitted.headers.get('location') ?? undefined;
    if (submitted.status !== 302 || !redirect) throw new ConsentPageError(submitted.status, submittedBody);
  }
  if (options.followRedirect === false) return { redirect };
  const callback = await fetch(redirect, { redirect: 'manual' });
  return { redirect, callbackStatus: callback.status, callbackBody: await callback.text() };
}

/** An `openUrl` for DeskAuthenticationProvider that consents as `account`; rejections are kept for the test to see. */
export function consentBrowser(account: string, onResult?: (result: ConsentResult | Error) => void): (url: string) => Promise<boolean> {
  return async (url: string) => {
    // Like a real browser, consent happens while the provider waits on its loopback server.
    completeConsent(url, account).then(
      (result) => onResult?.(result),
      (error: unknown) => onResult?.(error instanceof Error ? error : new Error(String(error))),
    );
    return true;
  };
}

function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code))).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

function textOf(html: string): string {
  return html.replace(/<style[\s\S]*?<\/style>/gi, ' ').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
}
