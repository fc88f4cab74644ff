import type * as vscode from 'vscode';
import { emulatorEndpoints, GOOGLE_ENDPOINTS, ServiceEndpoints } from '../../config/endpoints';
import { Disposable } from '../disposable';
import { updateDurably } from '../storage/durableMemento';
import { EmulatorLauncher } from './emulatorLauncher';
import { BackendChoice, chooseBackend, readDeskSettings, sameChoice } from '../settings';
import { DESK_SETTING } from '../../config/settingKeys';

export interface BackendOptions {
  /** Makes the launcher for the embedded emulator (replaced in tests); `preferredPort` is the last run's. */
  readonly createLauncher: (seed: 'demo' | 'none', preferredPort: number | undefined) => EmulatorLauncher;
  /** Remembers the embedded emulator's port between VS Code sessions (the extension's globalState). */
  readonly memento: Pick<vscode.Memento, 'get' | 'update'>;
}

const LAST_PORT_KEY = 'desk.emulator.lastPort';

/**
 * Which service endpoints Desk talks to: Google's, an emulator the user runs (`desk.emulator.url`), or the
 * embedded emulator, started on demand the first time something needs it (never during activation).
 */
export class Backend extends Disposable {
  private readonly changeEmitter: vscode.EventEmitter<ServiceEndpoints | undefined>;
  /** Fires when the endpoints change (setting changed, embedded emulator started or restarted elsewhere). */
  readonly onDidChange: vscode.Event<ServiceEndpoints | undefined>;
  private choiceValue: BackendChoice;
  private launcher: EmulatorLauncher | undefined;

  constructor(private readonly vs: typeof vscode, private readonly options: BackendOptions) {
    super();
    this.changeEmitter = this._register(new vs.EventEmitter<ServiceEndpoints | undefined>());
    this.onDidChange = this.changeEmitter.event;
    this.choiceValue = this.readChoice();
    this._register(vs.workspace.onDidChangeConfiguration((event) => {
      if (Object.values(DESK_SETTING).some((key) => event.affectsConfiguration(key))) {
        void this.reload();
      }
    }));
  }

  get choice(): BackendChoice {
    return this.choiceValue;
  }

  /** The endpoints when known without starting anything; undefined while the embedded emulator is not running. */
  get current(): ServiceEndpoints | undefined {
    const choice = this.choiceValue;
    if (choice.kind === 'google') return GOOGLE_ENDPOINTS;
    const url = choice.url ?? this.launcher?.runningUrl;
    return url ? emulatorEndpoints(url) : undefined;
  }

  /**
   * The endpoints in use, or those the embedded emulator will have: it restarts on its last port, so the
   * auth provider finds the sessions of the last run without starting anything.
   */
  get expected(): ServiceEndpoints {
    return this.current ?? emulatorEndpoints(`http://127.0.0.1:${this.lastPort() ?? 0}`);
  }

  /** The root URL of the emulator in use, if any (tests and the "emulator" status). */
  emulatorUrl(): string | undefined {
    return this.choiceValue.kind === 'emulator' ? (this.choiceValue.url ?? this.launcher?.runningUrl) : undefined;
  }

  /** The endpoints, starting the embedded emulator first when it is the chosen backend. */
  async ensure(): Promise<ServiceEndpoints> {
    const choice = this.choiceValue;
    if (choice.kind === 'google') return GOOGLE_ENDPOINTS;
    if (choice.url) return emulatorEndpoints(choice.url);
    const launcher = this.launcherFor(choice.seed);
    const wasRunning = launcher.runningUrl !== undefined;
    const url = await launcher.start();
    if (!wasRunning) {
      const port = Number(new URL(url).port);
      if (port && port !== this.lastPort()) await updateDurably(this.options.memento, LAST_PORT_KEY, port);
      this.changeEmitter.fire(emulatorEndpoints(url));
    }
    return emulatorEndpoints(url);
  }

  /** "Use the Local Emulator": remembers the choice in the user's settings, then starts what is needed. */
  async useEmulator(): Promise<ServiceEndpoints> {
    const config = this.vs.workspace.getConfiguration();
    if (config.get(DESK_SETTING.backend) !== 'emulator') {
      await config.update(DESK_SETTING.backend, 'emulator', this.vs.ConfigurationTarget.Global);
    }
    this.choiceValue = this.readChoice();
    return this.ensure();
  }

  async stopEmbeddedEmulator(): Promise<void> {
    const launcher = this.launcher;
    this.launcher = undefined;
    await launcher?.stop();
  }

  override dispose(): void {
    void this.stopEmbeddedEmulator();
    super.dispose();
  }

  private launcherFor(seed: 'demo' | 'none'): EmulatorLauncher {
    if (!this.launcher) {
      const launcher = this.options.createLauncher(seed, this.lastPort());
      launcher.onUnexpectedExit(() => {
        // The next request starts it again (on a new port): tell the views their endpoints are gone.
        if (this.launcher === launcher) this.changeEmitter.fire(undefined);
      });
      this.launcher = launcher;
    }
    return this.launcher;
  }

  private lastPort(): number | undefined {
    const port = this.options.memento.get(LAST_PORT_KEY);
    return typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
  }

  private readChoice(): BackendChoice {
    return chooseBackend(readDeskSettings(this.vs.workspace.getConfiguration()));
  }

  private async reload(): Promise<void> {
    const next = this.readChoice();
    if (sameChoice(next, this.choiceValue)) return;
    this.choiceValue = next;
    // The embedded emulator is only kept while it is the backend in use (and a new seed needs a new start).
    await this.stopEmbeddedEmulator();
    this.changeEmitter.fire(this.current);
  }
}
