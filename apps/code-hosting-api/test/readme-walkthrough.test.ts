import path from 'node:path';
import { describeReadmeWalkthrough } from '@repo/testing';

// The README's walk-through from the token the service prints at its first start.
describeReadmeWalkthrough({
  appDir: path.resolve(__dirname, '..'),
  heading: 'Walk-through with curl',
  readmePort: 3000,
  env: { PASSWORD_HASH_COST: '16' },
  printedToken: /^ {2}token: {4}([0-9a-f]{40})$/m,
  alsoPrinted: ['Created site administrator "root"'],
  steps: ['/issues', '/assets', 'attachment=@', '-X PATCH', '-X DELETE', 'Range:'],
  moreExpectedThan: 10,
  titles: {
    describe: 'README walk-through with curl',
    printed: 'prints the site administrator and its token at the first start, as the README says',
    runs: 'runs verbatim from that token to an attachment renamed and deleted',
  },
});
