module example.com/project-service-lfx-client

go 1.19

require (
	github.com/linuxfoundation/lfx-v2-project-service v0.6.0
	goa.design/goa/v3 v3.11.0
)

require (
	github.com/dimfeld/httptreemux/v5 v5.5.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/gorilla/websocket v1.5.3 // indirect
	github.com/hashicorp/errwrap v1.1.0 // indirect
	github.com/hashicorp/go-multierror v1.1.1 // indirect
)
