module example.com/project-service-go-client

go 1.19
