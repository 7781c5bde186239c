import path from 'node:path';
import { describeGoVendor } from '@repo/testing';

// LFX's generated Go client in test/lfx-client (README there), vendored with the modules it needs,
// checked byte for byte without a network or a Go toolchain: against the hashes LFX's go.sum
// publishes, and for the modules at other versions (modules.json says why) against Goa's go.sum.
describeGoVendor({
  name: "LFX project service's Go client",
  programDir: path.join(__dirname, 'lfx-client'),
  primary: { path: 'github.com/linuxfoundation/lfx-v2-project-service', version: 'v0.6.0' },
  // Goa at the newest version Go 1.19 compiles (LFX's go.mod: v3.22.6), and the three modules that
  // Goa v3.11.0 needs and v3.22.6 does not.
  differingFromPublished: [
    'goa.design/goa/v3',
    'github.com/dimfeld/httptreemux/v5',
    'github.com/hashicorp/go-multierror',
    'github.com/hashicorp/errwrap',
  ],
});
