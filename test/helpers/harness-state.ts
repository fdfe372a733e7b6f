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

export function saveHarnessState(state: HarnessState): void {
  process.env[KEY] = JSON.stringify(state);
}

export function harnessState(): HarnessState {
  const raw = process.env[KEY];
  if (!raw) throw new Error('test harness not initialised: run tests through jest (globalSetup)');
  return JSON.parse(raw) as HarnessState;
}
