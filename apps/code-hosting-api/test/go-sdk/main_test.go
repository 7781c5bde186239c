package sdk

import (
	"testing"

	"code.gitea.io/sdk/gitea"
)

func TestPlaceholder(t *testing.T) { _ = gitea.Version() }
