/** The soak harness of the apps (`@repo/testing/soak`): history, checker, cluster, nemesis, run. */
export {
  ABSENT,
  type ExpectedEvent,
  type Fault,
  type FaultKind,
  type History,
  type Observation,
  type Operation,
  type Outcome,
  type Phase,
  type StreamEvent,
  type Write,
} from './history';
export { checkHistory, formatReport, type CheckOptions, type SoakReport } from './checker';
export { faultWindows } from './check-errors';
export {
  describeOperation,
  describeEvent,
  firstDifference,
  type Violation,
  type ViolationKind,
} from './violations';
export { HistoryRecorder, outcomeOf, REQUEST_TIMEOUT_MS, type Router, type SoakRequest } from './client';
export { startCluster, SOAK_SERVER_URL, type ClusterOptions, type SoakCluster } from './cluster';
export { FAULT_KINDS, runNemesis, type NemesisOptions } from './nemesis';
export { seededRandom, type Random } from './random';
export { readWholeStream, streamEventOf } from './stream';
export { FAULT_MARGIN_MS, runSoak, type SoakApi, type SoakOptions, type SoakWorkload } from './run';
