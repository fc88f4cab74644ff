/** A vscode.Memento in a Map, for the unit tests of what the extension remembers (globalState, workspaceState). */
export class MapMemento {
  readonly values = new Map<string, unknown>();

  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- vscode.Memento's signature, which the code under test calls
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }

  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}
