module code.gitea.io/sdk/gitea

go 1.18

require (
	github.com/davidmz/go-pageant v1.0.2
	github.com/go-fed/httpsig v1.1.0
	github.com/hashicorp/go-version v1.6.0
	github.com/stretchr/testify v1.7.0
	golang.org/x/crypto v0.22.0
)

require (
	github.com/davecgh/go-spew v1.1.0 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	golang.org/x/sys v0.19.0 // indirect
	gopkg.in/yaml.v3 v3.0.0-20200313102051-9f266ea9e77c // indirect
)
