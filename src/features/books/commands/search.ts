/** "Find Books…": the live search quick pick, then what the user chose for the result (details, or a shelf to add it to). */
import type { Volume } from '../../../shared/schemas/books';
import type { BooksNode } from '../tree/model';
import { volumeLabel } from '../tree/presentation';
import { SearchChoice, VolumeSearchPicker } from '../search/searchPicker';
import type { BooksCommandContext, BooksPrompts } from './context';
import type { AddedVolume, VolumeCommands } from './volumes';

export interface SearchOutcome {
  readonly action: 'details' | 'add';
  readonly volume: Volume;
  readonly added?: AddedVolume | undefined;
}

export class SearchCommands {
  /** The open picker, if any (tests drive it; a second search closes the first). */
  current: VolumeSearchPicker | undefined;

  constructor(private readonly context: BooksCommandContext, private readonly prompts: BooksPrompts, private readonly volumes: VolumeCommands) {}

  private get t() {
    return this.prompts.t;
  }

  /** Opens the picker and resolves with the volume the user chose, or undefined when closed. */
  async findVolume(initialQuery?: string): Promise<SearchChoice | undefined> {
    this.current?.dispose();
    const picker = new VolumeSearchPicker(this.context.desk.vs, this.context.api(), initialQuery ? { initialQuery } : {});
    this.current = picker;
    picker.show();
    try {
      return await picker.done;
    } finally {
      picker.dispose();
      if (this.current === picker) this.current = undefined;
    }
  }

  /** The palette's and the view's "Find Books…". A shelf row as argument adds the chosen book to that shelf. */
  async search(node?: BooksNode, initialQuery?: unknown): Promise<SearchOutcome | undefined> {
    const choice = await this.findVolume(typeof initialQuery === 'string' ? initialQuery : undefined);
    if (!choice) return undefined;
    let action: 'details' | 'add' | undefined = choice.action === 'pick' ? undefined : choice.action;
    if (node?.kind === 'shelf' && node.writable && choice.action === 'pick') action = 'add';
    action ??= await this.prompts.pick([
      { label: `$(book) ${this.t('Open Details')}`, description: this.t('description, identifiers, categories, links'), value: 'details' as const },
      { label: `$(add) ${this.t('Add to Shelf…')}`, description: this.t('one of your shelves'), value: 'add' as const },
    ], this.t('"{0}": what now?', volumeLabel(choice.volume, this.t)));
    if (!action) return undefined;
    if (action === 'details') {
      await this.volumes.openVolume(choice.volume);
      return { action, volume: choice.volume };
    }
    const added = await this.volumes.addToShelf(node?.kind === 'shelf' ? node : undefined, choice.volume);
    return { action, volume: choice.volume, added };
  }
}
