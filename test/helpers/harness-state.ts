/** What global setup started, handed to test files and teardown through one environment variable. */
export interface HarnessState {
  workDir: string;
  adminUrl: string;
  templateDb: string;
  temporalAddress: string;
  temporalPid: number | null;
  postgresPid: number | null;
  bundlePath: string;
}

const KEY = 'PLATFORM_TEST_HARNESS';

/** The variable through which the workflows tier's global setup hands its bundle of `workflows/` to the test files. */
export const WORKFLOWS_BUNDLE_ENV = 'PLATFORM_TEST_WORKFLOWS_BUNDLE';

export function saveHarnessState(state: HarnessState): void {
  process.env[KEY] = JSON.stringify(state);
}

export function harnessState(): HarnessState {
  const state = outerHarnessState();
  if (!state) throw new Error('test harness not initialised: run tests through jest (globalSetup)');
  return state;
}

/** The harness of the run this process belongs to, if any (null outside a test run). */
export function outerHarnessState(): HarnessState | null {
  const raw = process.env[KEY];
  return raw ? (JSON.parse(raw) as HarnessState) : null;
}
