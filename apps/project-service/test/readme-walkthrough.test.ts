import path from 'node:path';
import { describeReadmeWalkthrough } from '@repo/testing';

// The README's "Try it with curl", from the development token the service prints when no key is
// configured.
describeReadmeWalkthrough({
  appDir: path.resolve(__dirname, '..'),
  heading: 'Try it with curl',
  readmePort: 8080,
  printedToken: /^ {2}export TOKEN=(\S+)$/m,
  steps: ['-X POST', 'If-Match', '-X PUT', '/settings', '-X DELETE'],
  moreExpectedThan: 8,
  titles: {
    describe: 'README "Try it with curl"',
    printed: 'prints the development admin token as a line to paste',
    runs: 'runs verbatim from that token through create, read, update, settings and delete',
  },
});
