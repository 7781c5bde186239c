import path from 'node:path';
import { describeReadmeWalkthrough } from '@repo/testing';

// The README from its top through "Try it with curl" (its XML and Go gob steps included), pasted
// into one shell from the development token the service prints when no key is configured.
describeReadmeWalkthrough({
  appDir: path.resolve(__dirname, '..'),
  heading: 'Try it with curl',
  readmePort: 8080,
  printedToken: /^ {2}export TOKEN=(\S+)$/m,
  steps: ['-X POST', 'If-Match', '-X PUT', '/settings', '-X DELETE', 'Content-Type: application/xml'],
  moreExpectedThan: 8,
  titles: {
    describe: 'README "Try it with curl"',
    printed: 'prints the development admin token as a line to paste',
    runs: 'runs verbatim from the top, in one shell: create, read, update, settings, delete, XML and Go gob',
  },
});
