// Global teardown: the run's shared state (core/transport/run-state.ts) is not needed past the run.
import { RunState } from '../transport/run-state.ts';

export default function removeRunState(): void {
  RunState.remove();
}
