/**
 * The functions with the most self time in a V8 .cpuprofile (as `node --cpu-prof` writes it).
 *   pnpm run bench:profile <file.cpuprofile> [top=25]   (in an app; runs the built copy of this file)
 * Self time of a node = its share of samples; functions are merged by name, file and line, and
 * also summed by package (node_modules/<name>) to show which layer the time goes to.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

function packageOf(url: string): string {
  const match = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1]!;
  if (url.startsWith('node:') || url === '') return url === '' ? '(native/V8)' : 'node core';
  if (/\/dist\//.test(url) || /\/src\//.test(url)) return '(app)';
  return url.split('/').slice(-2).join('/');
}

export function summarize(profile: Profile, top = 25): string {
  const selfMicros = new Map<number, number>();
  for (let index = 0; index < profile.samples.length; index++) {
    const id = profile.samples[index]!;
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  }
  const idleIds = new Set(
    profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((n) => n.id),
  );
  let idle = 0;
  let all = 0;
  for (const [id, micros] of selfMicros) {
    all += micros;
    if (idleIds.has(id)) idle += micros;
  }
  // Shares are of the time the process was busy: idle waiting (between loads, on the database) is left out.
  const total = all - idle || 1;
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const node of profile.nodes) {
    const micros = selfMicros.get(node.id) ?? 0;
    if (!micros || idleIds.has(node.id)) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^.*\/(node_modules|dist|src)\//, '$1/');
    const name = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
    const pkg = packageOf(url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
  }
  const lines = (map: Map<string, number>, count: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, micros]) => `${((micros / total) * 100).toFixed(1).padStart(5)}%  ${name}`);
  return [
    `profile: ${(all / 1e6).toFixed(1)} s sampled, ${(total / 1e6).toFixed(1)} s busy (shares below are of busy time)`,
    '',
    'self time by function:',
    ...lines(byFunction, top),
    '',
    'self time by package:',
    ...lines(byPackage, 15),
  ].join('\n');
}

if (require.main === module) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: cpu-profile-summary.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  console.log(summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(process.argv[3] ?? 25)));
}
