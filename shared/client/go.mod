module github.com/firmoapi/firmo/shared/client

go 1.22
