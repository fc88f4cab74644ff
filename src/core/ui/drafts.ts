/**
 * Text typed into a dialog (New / Edit Task, New / Edit Event, Quick Add, Drive's Add People and comment boxes...)
 * that was not saved, because the user pressed Escape on some step or the save failed: kept for the session, so the same dialog on the same item starts with it.
 * A successful save (or typing the original text back) drops it. No vscode, so the rules are unit-tested.
 */

import type { Translate } from '../../shared/l10n';

/** A dialog's fields by name ("title", "notes", "when"...), as the text of each step. */
export type DraftFields = Readonly<Partial<Record<string, string>>>;

/** Every dialog's unsaved text in this session, by a key naming the dialog and its item ("edit-task/<list>/<task>"). */
export class Drafts {
  private readonly kept = new Map<string, DraftFields>();

  /** The draft of one dialog run: `original` is what each step shows when nothing was left unsaved. */
  open(key: string, original: DraftFields): Draft {
    return new Draft(key, original, this.kept.get(key) ?? {}, (fields) => {
      if (fields) this.kept.set(key, fields);
      else this.kept.delete(key);
    });
  }

  has(key: string): boolean {
    return this.kept.has(key);
  }

  /** Forgets one dialog's draft, or every draft. */
  clear(key?: string): void {
    if (key === undefined) this.kept.clear();
    else this.kept.delete(key);
  }
}

/** What an input box of a draft's step is opened with. */
export interface DraftBox<V> {
  readonly prompt: string;
  readonly value: string;
  readonly validateInput: (text: string) => V | undefined;
}

/** One run of a dialog: what each step starts with, and what the user typed so far. */
export class Draft {
  private readonly typed: Partial<Record<string, string>>;
  private saved = false;

  constructor(readonly key: string, private readonly original: DraftFields, kept: DraftFields, private readonly store: (fields: DraftFields | undefined) => void) {
    this.typed = { ...kept };
  }

  /** What a step starts with: the text left unsaved last time, else the item's own value. */
  value(field: string): string {
    return this.typed[field] ?? this.original[field] ?? '';
  }

  /** Whether a step starts with unsaved text from last time (its prompt says so). */
  isUnsaved(field: string): boolean {
    const typed = this.typed[field];
    return typed !== undefined && typed !== (this.original[field] ?? '');
  }

  /** Keeps what is in a step's box: called as the user types (so Escape loses nothing) and with the answer. */
  keep(field: string, text: string): void {
    // A box validated once more after the save (VS Code may, a script does) must not bring the draft back.
    if (this.saved) return;
    if (text === (this.original[field] ?? '')) Reflect.deleteProperty(this.typed, field);
    else this.typed[field] = text;
    this.store(Object.keys(this.typed).length > 0 ? { ...this.typed } : undefined);
  }

  /** Saved: nothing is left to offer next time. */
  drop(): void {
    this.saved = true;
    for (const field of Object.keys(this.typed)) Reflect.deleteProperty(this.typed, field);
    this.store(undefined);
  }

  /**
   * Asks one step in an input box `show` opens with the box's prompt, first text and check: it starts with the
   * draft's text (its prompt saying so) and keeps what is typed, so Escape on this or a later step loses nothing.
   */
  async ask<V = string>(field: string, prompt: string, t: Translate, show: (box: DraftBox<V>) => PromiseLike<string | undefined>, validate?: (text: string) => V | undefined): Promise<string | undefined> {
    const answer = await show({
      prompt: this.prompt(field, prompt, t),
      value: this.value(field),
      validateInput: (text) => {
        this.keep(field, text);
        return validate?.(text);
      },
    });
    // Kept again: an answer can come without the check having seen its last text (a scripted box).
    if (answer !== undefined) this.keep(field, answer);
    return answer;
  }

  /** A step's prompt, saying when the box holds the unsaved text of last time. */
  prompt(field: string, prompt: string, t: Translate): string {
    return this.isUnsaved(field) ? unsavedPrompt(prompt, t) : prompt;
  }
}

/** A prompt whose box starts with the unsaved text of last time, saying so. */
export function unsavedPrompt(prompt: string, t: Translate): string {
  return t('{0} (your unsaved text from last time)', prompt);
}
