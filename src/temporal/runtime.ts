import { DefaultLogger, Runtime } from '@temporalio/worker';

let runtimeInstalled = false;

/** Our own signal handling decides the shutdown order, so the SDK must not react to signals by itself. */
export function installTemporalRuntime(): void {
  if (runtimeInstalled) return;
  Runtime.install({ shutdownSignals: [], logger: new DefaultLogger('WARN') });
  runtimeInstalled = true;
}
