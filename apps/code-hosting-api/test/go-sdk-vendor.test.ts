import path from 'node:path';
import { describeGoVendor } from '@repo/testing';

// The Gitea Go SDK test program's vendor/ tree, checked byte for byte without a network or a Go
// toolchain against the hashes the SDK publishes in its go.sum (test/go-sdk/README.md says where
// each module came from; modules.json lists them).
describeGoVendor({
  name: 'Gitea Go SDK',
  programDir: path.join(__dirname, 'go-sdk'),
  primary: { path: 'code.gitea.io/sdk/gitea', version: 'v0.19.0' },
  // Every dependency is at the version the SDK's go.sum pins.
  differingFromPublished: [],
});
