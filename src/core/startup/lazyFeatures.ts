/**
 * Features loaded after activation, each from its own bundle. Activation only registers what VS Code needs at
 * once: a stub for every contributed command of a feature (a command run before its feature is loaded loads
 * it, then runs), the file systems a restored editor may ask for, and the tree views that show cached rows (VS Code
 * asks a visible view for rows a window round trip after its registration: that trip then overlaps the loading). A
 * feature's real registrations go through a `vscode` whose `commands.registerCommand`,
 * `workspace.registerFileSystemProvider` and `window.createTreeView` fill those stubs in; everything else reaches
 * VS Code unchanged. Features load one per macrotask after activation returns (three of
 * them have background duties: the Drive change poller, the Calendar status bar, TODO hovers), or at once when a
 * command or a test needs them; features marked `deferred` load only once the start has settled.
 */
import type * as vscode from 'vscode';
import type { TreeViewRegistration } from '../../config/treeViews';
import type { DeskContext } from '../deskContext';
import { Disposable } from '../disposable';
import { markStartup, startupMarksWanted } from './startupMarks';

export interface LazyFeatureSpec<TSlice> {
  readonly name: string;
  /**
   * Tree views registered at activation with stand-ins for the data provider and drag and drop: VS Code asks a
   * visible view for its rows a window round trip after the registration, and that trip then runs while the features
   * load. The feature's createTreeView gets the view back, attached to its provider (config/treeViews.ts).
   */
  readonly treeViews?: readonly TreeViewRegistration[];
  /** Command ids of this feature (the stubs registered at activation). */
  readonly commandPrefixes: readonly string[];
  /** File-system schemes this feature serves (proxied from activation on). */
  readonly fileSystems: readonly { scheme: string; options: { isCaseSensitive?: boolean; isReadonly?: boolean } }[];
  /** Loads the bundle and registers the feature with the desk it is given. */
  load(desk: DeskContext): TSlice;
  /**
   * Nothing of it is needed while the window starts (no view shown from the cache, no background duty at once):
   * it loads only once the start has settled (DEFERRED_LOAD_MS), or at once when a command of it runs, so its
   * bundle is not compiled while the extension host still answers the visible views.
   */
  readonly deferred?: boolean;
}

/** How long after activation the deferred features wait: past the first rows of the views shown at a start. */
export const DEFERRED_LOAD_MS = 3000;

type CommandHandler = (...args: unknown[]) => unknown;

/** Registers the stubs of every feature and loads each on demand; one instance per activation. */
export class LazyFeatures extends Disposable {
  private readonly handlers = new Map<string, CommandHandler>();
  private readonly stubbed = new Set<string>();
  private readonly fileSystems = new Map<string, ProxyFileSystem>();
  private readonly treeViews = new Map<string, StandInTreeView>();
  private readonly loaded = new Map<string, unknown>();
  private readonly specs = new Map<string, LazyFeatureSpec<unknown>>();
  private readonly featureDesk: DeskContext;

  constructor(private readonly desk: DeskContext, contributedCommands: readonly string[], specs: readonly LazyFeatureSpec<unknown>[]) {
    super();
    const vs = desk.vs;
    // Not a spread of `desk`: that would run its getters now, and the clock's first time-zone lookup alone (ICU's
    // zone data) took 64 ms of activate(); the features ask for what they need when they load.
    const featureVs = this.interceptingVscode(vs);
    this.featureDesk = new Proxy(desk, { get: (target, property, receiver) => (property === 'vs' ? featureVs : Reflect.get(target, property, receiver) as unknown) });
    for (const spec of specs) {
      this.specs.set(spec.name, spec);
      for (const id of contributedCommands.filter((command) => spec.commandPrefixes.some((prefix) => command.startsWith(prefix)))) {
        this.stubbed.add(id);
        this._register(vs.commands.registerCommand(id, async (...args: unknown[]) => {
          this.ensure(spec.name);
          const handler = this.handlers.get(id);
          if (!handler) throw new Error(vs.l10n.t('Desk: the {0} feature did not register {1}', spec.name, id));
          return await handler(...args);
        }));
      }
      for (const view of spec.treeViews ?? []) this.treeViews.set(view.id, this.standInTreeView(view, () => { this.ensure(spec.name); }));
      for (const { scheme, options } of spec.fileSystems) {
        const proxy = new ProxyFileSystem(vs, () => { this.ensure(spec.name); });
        this.fileSystems.set(scheme, proxy);
        this._register(vs.workspace.registerFileSystemProvider(scheme, proxy, options));
        this._register(proxy);
      }
    }
  }

  /** The feature's slice, loading its bundle first if needed (synchronous: a require and a register call). */
  ensure(name: string): unknown {
    if (this.loaded.has(name)) return this.loaded.get(name);
    const spec = this.specs.get(name);
    if (!spec) throw new Error(this.desk.vs.l10n.t('Desk: no feature named {0}', name));
    const started = performance.now();
    const slice = spec.load(this.featureDesk);
    this.loaded.set(name, slice);
    this.desk.log.info(`Desk: ${name} loaded in ${(performance.now() - started).toFixed(1)} ms`);
    markStartup(`feature:${name}`);
    return slice;
  }

  /** Loads every feature not yet loaded, one per macrotask, so the host stays responsive. */
  loadAllSoon(deferredAfterMs = DEFERRED_LOAD_MS): void {
    const specs = [...this.specs.values()];
    const loadInTurn = (pending: string[]): void => {
      const next = (): void => {
        const name = pending.shift();
        if (name === undefined || this.isDisposed) return;
        try {
          this.ensure(name);
        } catch (error) {
          this.desk.log.error(`Desk: could not load ${name}: ${error instanceof Error ? error.message : String(error)}`);
        }
        setTimeout(next, 0);
      };
      setTimeout(next, 0);
    };
    loadInTurn(specs.filter((spec) => !spec.deferred).map((spec) => spec.name));
    const later = specs.filter((spec) => spec.deferred).map((spec) => spec.name);
    if (later.length === 0) return;
    const timer = setTimeout(() => { loadInTurn(later); }, deferredAfterMs);
    this._register({ dispose: () => { clearTimeout(timer); } });
  }

  /** Registers `spec`'s view now, with a data provider (and drag and drop) that load the feature on first use. */
  private standInTreeView(spec: TreeViewRegistration, load: () => void): StandInTreeView {
    const vs = this.desk.vs;
    const provider = this._register(new ProxyTreeDataProvider(vs, spec.id, load));
    const dragAndDrop = spec.dragAndDrop ? new ProxyDragAndDrop(spec.dragAndDrop, () => provider.attached(load)) : undefined;
    const view = this._register(vs.window.createTreeView(spec.id, {
      treeDataProvider: provider,
      ...(dragAndDrop ? { dragAndDropController: dragAndDrop } : {}),
      ...spec.options,
    }));
    if (startupMarksWanted) markWhenVisible(spec.id, view);
    return { spec, view, provider, dragAndDrop };
  }

  /** A feature's createTreeView of a view registered at activation: the options must match; the view is attached. */
  private attachTreeView<T>(standIn: StandInTreeView, options: vscode.TreeViewOptions<T>): vscode.TreeView<T> {
    const { spec } = standIn;
    const controller = options.dragAndDropController;
    const same = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
    const matches = Boolean(options.canSelectMany) === Boolean(spec.options.canSelectMany)
      && Boolean(options.showCollapseAll) === Boolean(spec.options.showCollapseAll)
      && Boolean(options.manageCheckboxStateManually) === Boolean(spec.options.manageCheckboxStateManually)
      && Boolean(controller) === Boolean(spec.dragAndDrop)
      && same(controller?.dragMimeTypes, spec.dragAndDrop?.dragMimeTypes) && same(controller?.dropMimeTypes, spec.dragAndDrop?.dropMimeTypes);
    // A programming error (the tests catch it): the view keeps the options it was registered with.
    if (!matches) this.desk.log.error(`Desk: the ${spec.id} view was registered at activation with other options than its feature gives`);
    standIn.provider.attach(options.treeDataProvider);
    if (controller) standIn.dragAndDrop?.attach(controller);
    return standIn.view as vscode.TreeView<T>;
  }

  /** The `vscode` a feature sees: its contributed commands and file systems fill the activation stubs. */
  private interceptingVscode(vs: typeof vscode): typeof vscode {
    const commands = new Proxy(vs.commands, {
      get: (target, property, receiver) => {
        if (property !== 'registerCommand') return Reflect.get(target, property, receiver) as unknown;
        return (id: string, handler: CommandHandler, thisArg?: unknown): vscode.Disposable => {
          if (!this.stubbed.has(id)) return target.registerCommand(id, handler, thisArg);
          this.handlers.set(id, thisArg === undefined ? handler : handler.bind(thisArg));
          return new vs.Disposable(() => this.handlers.delete(id));
        };
      },
    });
    const workspace = new Proxy(vs.workspace, {
      get: (target, property, receiver) => {
        if (property !== 'registerFileSystemProvider') return Reflect.get(target, property, receiver) as unknown;
        return (scheme: string, provider: vscode.FileSystemProvider, options?: { readonly isCaseSensitive?: boolean; readonly isReadonly?: boolean | vscode.MarkdownString }): vscode.Disposable => {
          const proxy = this.fileSystems.get(scheme);
          if (!proxy) return target.registerFileSystemProvider(scheme, provider, options);
          return proxy.attach(provider);
        };
      },
    });
    // Views registered at activation are handed back; the others are created here.
    const window = new Proxy(vs.window, {
      get: (target, property, receiver) => {
        if (property !== 'createTreeView') return Reflect.get(target, property, receiver) as unknown;
        return <T>(viewId: string, options: vscode.TreeViewOptions<T>): vscode.TreeView<T> => {
          const standIn = this.treeViews.get(viewId);
          if (standIn) return this.attachTreeView(standIn, options);
          const view = target.createTreeView(viewId, options);
          if (startupMarksWanted) markWhenVisible(viewId, view);
          return view;
        };
      },
    });
    return new Proxy(vs, {
      get: (target, property, receiver) => {
        if (property === 'commands') return commands;
        if (property === 'workspace') return workspace;
        if (property === 'window') return window;
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
  }
}

interface StandInTreeView {
  readonly spec: TreeViewRegistration;
  readonly view: vscode.TreeView<unknown>;
  readonly provider: ProxyTreeDataProvider;
  readonly dragAndDrop: ProxyDragAndDrop | undefined;
}

/** The network benchmark's mark of the moment VS Code tells Desk a view is visible. */
function markWhenVisible(viewId: string, view: vscode.TreeView<unknown>): void {
  if (view.visible) {
    markStartup(`visible:${viewId}`);
    return;
  }
  const shown = view.onDidChangeVisibility((event) => {
    if (!event.visible) return;
    markStartup(`visible:${viewId}`);
    shown.dispose();
  });
}

/** A tree view's data provider registered at activation: loads its feature when VS Code first asks, then forwards. */
class ProxyTreeDataProvider implements vscode.TreeDataProvider<unknown>, vscode.Disposable {
  private target: vscode.TreeDataProvider<unknown> | undefined;
  private forwarding: vscode.Disposable | undefined;
  private readonly changes: vscode.EventEmitter<unknown>;
  readonly onDidChangeTreeData: vscode.Event<unknown>;

  private calls = 0;

  constructor(private readonly vs: typeof vscode, private readonly viewId: string, private readonly load: () => void) {
    this.changes = new vs.EventEmitter<unknown>();
    this.onDidChangeTreeData = this.changes.event;
  }

  attach(provider: vscode.TreeDataProvider<unknown>): void {
    this.forwarding?.dispose();
    this.target = provider;
    this.forwarding = provider.onDidChangeTreeData?.((change) => { this.changes.fire(change); });
  }

  /** The feature's provider, loading the feature first if needed. */
  attached(load = this.load): vscode.TreeDataProvider<unknown> {
    if (!this.target) load();
    if (!this.target) throw new Error(this.vs.l10n.t('Desk: this view is not available'));
    return this.target;
  }

  getTreeItem(element: unknown): vscode.TreeItem | Thenable<vscode.TreeItem> {
    if (!startupMarksWanted) return this.attached().getTreeItem(element);
    return this.marked(() => this.attached().getTreeItem(element));
  }
  getChildren(element?: unknown): vscode.ProviderResult<unknown[]> {
    if (!startupMarksWanted) return this.attached().getChildren(element);
    return this.marked(() => this.attached().getChildren(element));
  }
  getParent(element: unknown): vscode.ProviderResult<unknown> {
    return this.attached().getParent?.(element);
  }
  // Every Desk view resolves its hovers; VS Code asks once whether a provider can, at registration.
  resolveTreeItem(item: vscode.TreeItem, element: unknown, token: vscode.CancellationToken): vscode.ProviderResult<vscode.TreeItem> {
    const target = this.attached();
    return target.resolveTreeItem ? target.resolveTreeItem(item, element, token) : item;
  }
  dispose(): void {
    this.forwarding?.dispose();
    this.changes.dispose();
  }

  /** The network benchmark's marks of each ask of VS Code and Desk's answer, to tell Desk's time from the window's. */
  private marked<T>(answer: () => T | Thenable<T>): Promise<T> {
    const call = ++this.calls;
    markStartup(`ask:${this.viewId}:${call}`);
    return Promise.resolve(answer()).finally(() => { markStartup(`answer:${this.viewId}:${call}`); });
  }
}

/** A tree view's drag and drop registered at activation (mime types fixed then); forwards to the feature's controller. */
class ProxyDragAndDrop implements vscode.TreeDragAndDropController<unknown> {
  readonly dragMimeTypes: readonly string[];
  readonly dropMimeTypes: readonly string[];
  private target: vscode.TreeDragAndDropController<unknown> | undefined;

  constructor(types: NonNullable<TreeViewRegistration['dragAndDrop']>, private readonly load: () => void) {
    this.dragMimeTypes = types.dragMimeTypes;
    this.dropMimeTypes = types.dropMimeTypes;
  }

  attach(controller: vscode.TreeDragAndDropController<unknown>): void {
    this.target = controller;
  }

  private controller(): vscode.TreeDragAndDropController<unknown> | undefined {
    if (!this.target) this.load();
    return this.target;
  }

  handleDrag(source: readonly unknown[], dataTransfer: vscode.DataTransfer, token: vscode.CancellationToken): Thenable<void> | void {
    return this.controller()?.handleDrag?.(source, dataTransfer, token);
  }
  handleDrop(target: unknown, dataTransfer: vscode.DataTransfer, token: vscode.CancellationToken): Thenable<void> | void {
    return this.controller()?.handleDrop?.(target, dataTransfer, token);
  }
}

/** A file system registered at activation that loads its feature on first use and then forwards to it. */
class ProxyFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private target: vscode.FileSystemProvider | undefined;
  private forwarding: vscode.Disposable | undefined;
  private readonly changes: vscode.EventEmitter<vscode.FileChangeEvent[]>;
  readonly onDidChangeFile: vscode.Event<vscode.FileChangeEvent[]>;

  constructor(private readonly vs: typeof vscode, private readonly load: () => void) {
    this.changes = new vs.EventEmitter<vscode.FileChangeEvent[]>();
    this.onDidChangeFile = this.changes.event;
  }

  attach(provider: vscode.FileSystemProvider): vscode.Disposable {
    this.target = provider;
    this.forwarding = provider.onDidChangeFile((events) => { this.changes.fire(events); });
    return new this.vs.Disposable(() => {
      this.forwarding?.dispose();
      if (this.target === provider) this.target = undefined;
    });
  }

  private provider(): vscode.FileSystemProvider {
    if (!this.target) this.load();
    if (!this.target) throw this.vs.FileSystemError.Unavailable(this.vs.l10n.t('Desk: this file system is not available'));
    return this.target;
  }

  watch(uri: vscode.Uri, options: { readonly recursive: boolean; readonly excludes: readonly string[] }): vscode.Disposable {
    return this.provider().watch(uri, options);
  }
  stat(uri: vscode.Uri): vscode.FileStat | Thenable<vscode.FileStat> {
    return this.provider().stat(uri);
  }
  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] | Thenable<[string, vscode.FileType][]> {
    return this.provider().readDirectory(uri);
  }
  createDirectory(uri: vscode.Uri): void | Thenable<void> {
    return this.provider().createDirectory(uri);
  }
  readFile(uri: vscode.Uri): Uint8Array | Thenable<Uint8Array> {
    return this.provider().readFile(uri);
  }
  writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): void | Thenable<void> {
    return this.provider().writeFile(uri, content, options);
  }
  delete(uri: vscode.Uri, options: { readonly recursive: boolean }): void | Thenable<void> {
    return this.provider().delete(uri, options);
  }
  rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { readonly overwrite: boolean }): void | Thenable<void> {
    return this.provider().rename(oldUri, newUri, options);
  }
  copy(source: vscode.Uri, destination: vscode.Uri, options: { readonly overwrite: boolean }): void | Thenable<void> {
    const provider = this.provider();
    if (!provider.copy) throw this.vs.FileSystemError.NoPermissions(this.vs.l10n.t('Desk: copy is not supported here'));
    return provider.copy(source, destination, options);
  }
  dispose(): void {
    this.forwarding?.dispose();
    this.changes.dispose();
  }
}
