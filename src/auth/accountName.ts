/** An account as Desk compares it: its e-mail address, lower-case (Google's addresses are case-insensitive). */
export function normalizeAccount(email: string): string {
  return email.trim().toLowerCase();
}
