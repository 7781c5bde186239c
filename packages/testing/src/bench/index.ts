/** The bench harness of the apps (`@repo/testing/bench`): loads, rounds, servers, results. */
export { runBench, type BenchEntry } from './run';
export { benchAgainstBaseline, type BenchServers, type HttpBench, type VariantContext } from './http-bench';
export {
  serveBaseline,
  type BaselineHandler,
  type BaselineLayers,
  type BaselineRequest,
  type BaselineResponse,
  type Query,
} from './baseline-server';
export { createThrowawayDatabase, dropDatabase, databaseUrl, SERVER_URL } from './postgres';
export { urlOfDatabase, withClient } from '../database-template';
export {
  median,
  startAppServer,
  startServer,
  type AppServerOptions,
  type ServerProcess,
  type StartOptions,
} from './processes';
export {
  commit,
  compareResults,
  machine,
  printResults,
  readResults,
  writeResults,
  type BenchResults,
  type Measurement,
  type ScenarioResult,
  type VariantFigures,
  type VariantRow,
  type VariantSection,
} from './report';
export {
  runScenarios,
  runVariantPair,
  selected,
  settingsFromEnvironment,
  type RoundSettings,
  type Scenario,
  type VariantTarget,
} from './rounds';
export { runLoad } from './load';
export type { LoadMode, LoadResult, LoadSpec, LoadTarget } from './load-spec';
export { summarize } from './cpu-profile-summary';
export { freePort } from '../ports';
export {
  benchAtScales,
  scaleTable,
  type Scale,
  type ScaleBench,
  type ScaleMeasurement,
  type ScaleProbe,
} from './scales';
export {
  benchBodyCosts,
  bodyCostTable,
  meetsTarget,
  type BodyCase,
  type BodyCost,
  type BodyCostBench,
} from './body-costs';
